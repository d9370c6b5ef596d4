import { Client, ClientConfig } from 'pg';
import { preparedStatementName } from './prepared-statements';

/** node-postgres' message when `query_timeout` fires (no error code). */
export const PG_READ_TIMEOUT_MESSAGE = 'Query read timeout';

/**
 * A node-postgres Client that closes its connection when a query hits `query_timeout`.
 *
 * Plain pg rejects the timed-out query but keeps the connection, with that query still active on
 * it; TypeORM then returns the client to the pool, and every later query on it queues behind the
 * abandoned one. The fault drills (test/platform/postgres-outage.e2e-spec.ts) showed the effect:
 * after a slow statement the next query on the reused connection timed out too, and after a
 * network black hole the API kept answering 503 with Postgres healthy again, because the pool
 * kept handing out the swallowed connections. Ending the client marks it unusable at once
 * (pg-pool drops it on release) and destroys the socket, so the next query gets a fresh
 * connection. Covers the promise form of `query`, the one TypeORM uses.
 *
 * It also runs every statement marked with `prepared()` as a named statement (decisions.md 46.10),
 * unless its config says `preparedStatements: false` (DB_PREPARED_STATEMENTS).
 */
export class TimeoutSafeClient extends Client {
  constructor(config?: string | (ClientConfig & { preparedStatements?: boolean })) {
    super(config);
    const named = typeof config !== 'object' || config.preparedStatements !== false;
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    (this as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const name = named && typeof args[0] === 'string' ? preparedStatementName(args[0]) : undefined;
      if (name !== undefined) args[0] = { name, text: args[0] };
      const result = query(...args);
      if (isThenable(result)) {
        result.then(undefined, (error: unknown) => {
          if ((error as { message?: unknown } | null)?.message === PG_READ_TIMEOUT_MESSAGE) {
            this.end().catch(() => undefined);
          }
        });
      }
      return result;
    };
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
