import { Pool, PoolClient, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';

/**
 * The EntityManager repositories get outside a transaction (TransactionHost.manager; decisions.md
 * 46.8). Its `query` goes to the pool directly: check a client out, run the statement, check the
 * client in. The answer and the errors are TypeORM's own — the rows (`[rows, rowCount]` for UPDATE
 * and DELETE), a QueryFailedError carrying the driver's error — and a client that fails while
 * checked out is given back with its error so the pool drops it, as TypeORM's query runner does.
 * What it skips is TypeORM's per-statement machinery: a query runner made and released for each
 * statement, and the before/after events broadcast to subscribers the service does not have.
 * Every other method is TypeORM's.
 */
export class PoolEntityManager extends EntityManager {
  constructor(
    dataSource: DataSource,
    private readonly pool: Pool,
  ) {
    super(dataSource);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TypeORM's signature
  override async query<T = any>(query: string, parameters?: any[]): Promise<T> {
    const client: PoolClient = await this.pool.connect();
    let failure: Error | undefined;
    const onError = (error: Error) => (failure = error);
    client.on('error', onError);
    let raw: QueryResult;
    try {
      raw = await client.query(query, parameters);
    } catch (error) {
      throw new QueryFailedError(query, parameters, error as Error);
    } finally {
      client.removeListener('error', onError);
      client.release(failure);
    }
    return (raw.command === 'UPDATE' || raw.command === 'DELETE' ? [raw.rows, raw.rowCount] : raw.rows) as T;
  }
}
