import { DataSourceOptions, MixedList } from 'typeorm';
import { AppConfig } from '@outreach/core';
import { TimeoutSafeClient } from './pg-client';
import { SERVICE_PG_TYPES } from './pg-types';

export type MigrationList = MixedList<Function>;

/** Options shared by every DataSource of the service (api, worker, cli, tests, migrate). */
export function postgresOptions(
  config: AppConfig,
  overrides: { queryTimeoutMs?: number | null; poolSize?: number; applicationName?: string } = {},
): DataSourceOptions {
  const queryTimeout = overrides.queryTimeoutMs === undefined ? config.dbQueryTimeoutMs : overrides.queryTimeoutMs;
  return {
    type: 'postgres',
    url: config.databaseUrl,
    uuidExtension: 'pgcrypto',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    poolSize: overrides.poolSize ?? config.dbPoolSize,
    connectTimeoutMS: config.dbConnectTimeoutMs,
    applicationName: overrides.applicationName ?? 'outreach',
    extra: {
      // A query on a connection that went silent (network black hole) fails instead of hanging:
      // the API answers 503 database_unavailable in under a second, and the client closes that
      // connection so the pool recovers by itself (see TimeoutSafeClient). The server cancels the
      // statement at the same bound, so an abandoned slow query does not keep running there.
      ...(queryTimeout === null ? {} : { query_timeout: queryTimeout, statement_timeout: queryTimeout }),
      Client: TimeoutSafeClient,
      preparedStatements: config.dbPreparedStatements,
      types: SERVICE_PG_TYPES,
      // No JIT compilation: the service's statements are short, and a cost estimate that misfires
      // (a batch's timeline trim, estimated from skewed statistics) had Postgres spend 30-40 ms of
      // CPU compiling a statement that runs in 1 ms (decisions.md 47.8).
      // Named statements (prepared(), decisions.md 46.10) are planned at every run, for their values
      // and the tables as they are then: a generic plan is kept until the next ANALYZE, and one made
      // while a table was small (a seq scan) stayed while the table grew (decisions.md 46.11).
      options: '-c jit=off -c plan_cache_mode=force_custom_plan',
      idleTimeoutMillis: 10000,
      keepAlive: true,
    },
  };
}
