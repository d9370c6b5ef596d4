import { TransactionHost } from '@outreach/platform';
import { DataSource, EntityManager } from 'typeorm';

/*
 * Checks for statements whose plan must not depend on statistics (decisions.md 16.36, 47.16): the
 * statement a service call sends is captured, then run again in a transaction that is rolled back,
 * and the rows it read from one table are counted.
 */

export interface SentStatement {
  sql: string;
  params: unknown[];
}

/**
 * Runs `work`, capturing every statement whose SQL matches `match` that goes through an
 * EntityManager: a transaction's, or the pooled manager `host` gives outside one (its own `query`).
 */
export async function capturing<T>(host: TransactionHost, match: (sql: string) => boolean, work: () => Promise<T>): Promise<{ result: T; sent: SentStatement[] }> {
  const sent: SentStatement[] = [];
  const prototypes = new Set([EntityManager.prototype, Object.getPrototypeOf(host.manager) as EntityManager]);
  const spies = [...prototypes].map((prototype) => {
    const original = prototype.query;
    return jest.spyOn(prototype, 'query').mockImplementation(function (this: EntityManager, sql: string, params?: Parameters<EntityManager['query']>[1]) {
      if (match(sql)) sent.push({ sql, params: (params as unknown[] | undefined) ?? [] });
      return original.call(this, sql, params);
    });
  });
  try {
    return { result: await work(), sent };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/**
 * Rows the statement read from `relation`: those its sequential scans went through plus those its
 * index and bitmap scans fetched, as Postgres counts them for the transaction
 * (`pg_stat_xact_user_tables`). The statement runs in a transaction that is rolled back. One index
 * probe per key reads only what it finds; a scan of the table reads every row.
 */
export async function rowsRead(dataSource: DataSource, statement: SentStatement, relation: string): Promise<number> {
  const runner = dataSource.createQueryRunner();
  const counted = async (): Promise<number> => {
    const [row] = await runner.query(`SELECT (seq_tup_read + COALESCE(idx_tup_fetch, 0))::int AS n FROM pg_stat_xact_user_tables WHERE relname = $1`, [relation]);
    return row.n;
  };
  try {
    await runner.startTransaction();
    const before = await counted();
    await runner.query(statement.sql, statement.params);
    return (await counted()) - before;
  } finally {
    await runner.rollbackTransaction();
    await runner.release();
  }
}
