import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig, PlatformModule } from '@outreach/platform';
import { Client, types } from 'pg';
import { DataSource } from 'typeorm';
import { serviceMigrations } from '../support/service-modules';
import { prepareTestDatabase } from '../support/test-app';

@Module({ imports: [PlatformModule.forRoot({ role: 'cli', migrations: serviceMigrations() })] })
class PlatformOnly {}

/**
 * The service's pg clients read timestamptz with their own parser (pg-types.ts). Real Postgres,
 * several session time zones (each prints the offset differently), compared with a bare pg
 * client's answer for the same instants.
 */
describe("timestamptz through the service's data source", () => {
  let context: INestApplicationContext;
  let plain: Client;

  beforeAll(async () => {
    await prepareTestDatabase();
    context = await NestFactory.createApplicationContext(PlatformOnly, { logger: false });
    plain = new Client({ connectionString: loadConfig().databaseUrl });
    await plain.connect();
  });

  afterAll(async () => {
    await plain?.end();
    await context?.close();
  });

  it("passes its own timestamptz parser to every client of the pool, not pg's", () => {
    const extra = (context.get(DataSource).options as { extra?: { types?: { getTypeParser(oid: number, format?: string): unknown } } }).extra;
    expect(typeof extra?.types?.getTypeParser(1184, 'text')).toBe('function');
    expect(extra?.types?.getTypeParser(1184, 'text')).not.toBe(types.getTypeParser(1184, 'text'));
  });

  it('opens its sessions without JIT compilation (decisions.md 47.8), where a bare client has the server default', async () => {
    const [service] = await context.get(DataSource).query(`SELECT current_setting('jit') AS jit`);
    const [bare] = (await plain.query(`SELECT current_setting('jit') AS jit, (SELECT boot_val FROM pg_settings WHERE name = 'jit') AS boot`)).rows;
    expect(service.jit).toBe('off');
    expect(bare.jit).toBe(bare.boot);
  });

  const instants = `SELECT t FROM unnest(ARRAY[
      '2026-11-29 13:22:01.123456+00', '2026-03-29 01:30:00+00', '1999-12-31 23:59:59.999999+00', '2026-06-01 00:00:00.5+00',
      '1000-01-01 00:00:00+00', '0044-03-15 12:00:00+00 BC', 'infinity', '-infinity']::timestamptz[]) WITH ORDINALITY AS u(t, i) ORDER BY i`;

  it.each(['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Europe/Amsterdam', 'Pacific/Chatham'])('reads the same instants as pg with TimeZone %s', async (zone) => {
    const db = context.get(DataSource);
    const ours: Array<{ t: unknown }> = await db.transaction(async (manager) => {
      await manager.query(`SELECT set_config('TimeZone', $1, true)`, [zone]);
      return manager.query(instants);
    });
    await plain.query(`SELECT set_config('TimeZone', $1, false)`, [zone]);
    const theirs = (await plain.query<{ t: unknown }>(instants)).rows;
    expect(ours).toHaveLength(8);
    const time = (v: unknown) => (v instanceof Date ? v.getTime() : v);
    expect(ours.map((r) => time(r.t))).toEqual(theirs.map((r) => time(r.t)));
    expect((ours[0].t as Date).toISOString()).toBe('2026-11-29T13:22:01.123Z');
  });
});
