import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PlatformModule, TransactionHost } from '@outreach/platform';
import { DataSource, QueryFailedError } from 'typeorm';
import { serviceMigrations } from '../support/service-modules';
import { prepareTestDatabase } from '../support/test-app';

@Module({ imports: [PlatformModule.forRoot({ role: 'cli', migrations: serviceMigrations() })] })
class PlatformOnly {}

/**
 * Outside a transaction, repositories' statements go to the pool without a TypeORM query runner
 * (PoolEntityManager, decisions.md 46.8). Each statement here runs through it and through
 * TypeORM's own manager, on real Postgres: the answers and the errors must be the same.
 */
describe("the pool's manager outside a transaction", () => {
  let context: INestApplicationContext;
  let host: TransactionHost;
  let typeorm: DataSource;
  const table = `pool_manager_probe_${process.pid}`;

  beforeAll(async () => {
    await prepareTestDatabase();
    context = await NestFactory.createApplicationContext(PlatformOnly, { logger: false });
    host = context.get(TransactionHost);
    typeorm = context.get(DataSource);
    await typeorm.query(`CREATE TABLE IF NOT EXISTS ${table} (id int PRIMARY KEY, name text NOT NULL)`);
  });

  afterAll(async () => {
    await typeorm?.query(`DROP TABLE IF EXISTS ${table}`);
    await context?.close();
  });

  it('is not TypeORM’s manager outside a transaction, and is the transaction’s inside one', async () => {
    expect(host.manager.constructor.name).toBe('PoolEntityManager');
    expect(host.manager).toBe(host.manager);
    await host.run(async () => expect(host.manager.constructor.name).toBe('EntityManager'));
  });

  it('answers every kind of statement as TypeORM does', async () => {
    const statements: Array<[string, unknown[]]> = [
      [`INSERT INTO ${table} (id, name) VALUES ($1, $2), ($3, $4) RETURNING id`, [1, 'a', 2, 'b']],
      [`SELECT id, name FROM ${table} ORDER BY id`, []],
      [`UPDATE ${table} SET name = name || '!' WHERE id = $1 RETURNING name`, [1]],
      [`UPDATE ${table} SET name = name WHERE id = $1`, [99]],
      [`DELETE FROM ${table} WHERE id = $1 RETURNING id`, [2]],
      [`INSERT INTO ${table} (id, name) VALUES ($1, $2)`, [2, 'b']],
      [`SELECT now() > $1::timestamptz AS later, '{"a":1}'::jsonb AS doc, 12345678901::bigint AS big`, [new Date(0)]],
    ];
    for (const [sql, params] of statements) {
      const ours = await host.manager.query(sql, params);
      // Undo, then the same statement through TypeORM's manager on the same table state.
      await typeorm.query(`TRUNCATE ${table}`);
      for (const [before, beforeParams] of statements) {
        if (before === sql) break;
        await typeorm.query(before, beforeParams);
      }
      const theirs = await typeorm.manager.query(sql, params);
      expect(ours).toEqual(theirs);
    }
    expect(await host.manager.query(`UPDATE ${table} SET name = 'x' WHERE id = $1 RETURNING id`, [1])).toEqual([[{ id: 1 }], 1]);
  });

  it('fails with TypeORM’s QueryFailedError carrying the driver’s code, and the pool goes on', async () => {
    await host.manager.query(`INSERT INTO ${table} (id, name) VALUES (500, 'x') ON CONFLICT DO NOTHING`);
    const failure = await host.manager.query(`INSERT INTO ${table} (id, name) VALUES (500, 'y')`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('23505');
    const syntax = await host.manager.query(`SELEC 1`).catch((error: unknown) => error);
    expect((syntax as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('42601');
    // Every client went back: as many statements again as the pool holds, one after another, all answered.
    for (let i = 0; i < 25; i++) expect(await host.manager.query(`SELECT $1::int AS n`, [i])).toEqual([{ n: i }]);
  });
});
