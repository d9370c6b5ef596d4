import { DataSourceOptions, MixedList } from 'typeorm';
import { AppConfig } from '../config/app-config';

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
      // the API answers 503 database_unavailable in under a second and recovers by itself.
      ...(queryTimeout === null ? {} : { query_timeout: queryTimeout }),
      idleTimeoutMillis: 10000,
      keepAlive: true,
    },
  };
}
