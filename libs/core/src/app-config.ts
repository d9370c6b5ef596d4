import { ConfigValues, registeredConfigFragments } from './config-fragments';
import { EnvReader } from './env-reader';

/**
 * The platform's configuration keys. Every module adds its own keys from its
 * `<module>.config.ts` (declaration merging on ConfigValues; see libs/core/src/config-fragments.ts), so this one type, and the
 * one `AppConfig` object injected everywhere, hold the whole service's configuration.
 */
export interface AppConfigValues extends ConfigValues {
  nodeEnv: string;
  port: number;
  host: string;
  databaseUrl: string;
  dbPoolSize: number;
  dbConnectTimeoutMs: number;
  dbQueryTimeoutMs: number;
  /**
   * Statements marked `prepared()` run as named statements (DB_PREPARED_STATEMENTS, default true;
   * decisions.md 46.10). Off for a connection pooler that does not keep them across transactions.
   */
  dbPreparedStatements: boolean;
  redisUrl: string;
  redisPrefix: string;
  logLevel: string;
  rateLimitPerMinute: number;
  rateLimitWindowSeconds: number;
  /**
   * How long an API process reuses a resolved API key (key, workspace, member) before reading it
   * again (API_KEY_CACHE_TTL_MS; 0: no cache). Changes are pushed to every process at once
   * through Redis pub/sub; this is the bound only when that push is lost (decisions.md 41.1).
   */
  apiKeyCacheTtlMs: number;
  metricsToken: string | null;
  /** Opens the queues dashboard at /admin/queues (ADMIN_TOKEN); null: no dashboard. */
  adminToken: string | null;
  outboxPollMs: number;
  bodyLimitBytes: number;
  /** AES-256 key (32 bytes) sealing custom-function header values at rest (FUNCTION_SECRETS_KEY). */
  functionSecretsKey: Buffer;
  /** True when FUNCTION_SECRETS_KEY was not set and the development key is in use. */
  functionSecretsKeyIsDefault: boolean;
  /**
   * The service's public URL as the outside world reaches it, without a trailing slash
   * (PUBLIC_BASE_URL, default http://localhost:<PORT>): where voice providers post their webhooks
   * (Twilio signs that full URL, decisions.md 27.3) and the base of the unsubscribe links put in
   * emails (30.15).
   */
  publicBaseUrl: string;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface AppConfig extends AppConfigValues {}

/**
 * Configuration, read once from the environment and validated at boot. A bad value stops the
 * process with one readable line per variable; nothing reads process.env elsewhere.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class AppConfig {
  constructor(values: AppConfigValues) {
    Object.assign(this, values);
  }

  /** The database name from DATABASE_URL. */
  get databaseName(): string {
    return decodeURIComponent(new URL(this.databaseUrl).pathname.replace(/^\//, ''));
  }
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Per-process defaults that differ from the API's (the worker tolerates longer queries). */
export interface ConfigDefaults {
  dbQueryTimeoutMs?: number;
  dbConnectTimeoutMs?: number;
}

/**
 * The worker's defaults: its jobs may run long queries, and under a burst a job may wait for a
 * pooled connection longer than an API request should (the API keeps 500 ms / 700 ms so that
 * an outage answers 503 within a second).
 */
export const WORKER_CONFIG_DEFAULTS: ConfigDefaults = { dbQueryTimeoutMs: 60_000, dbConnectTimeoutMs: 5_000 };

/** ADMIN_TOKEN guards a page that can retry and delete jobs: at least 16 characters. */
function readAdminToken(read: EnvReader): string | null {
  const token = read.optional('ADMIN_TOKEN');
  if (token !== null && token.length < 16) read.problem('ADMIN_TOKEN: expected at least 16 characters (e.g. openssl rand -hex 32)');
  return token;
}

export function loadConfig(env: Env = process.env, defaults: ConfigDefaults = {}): AppConfig {
  const read = new EnvReader(env);
  const functionSecrets = read.key32('FUNCTION_SECRETS_KEY', 'outreach development function-secrets key');
  const platform = {
    nodeEnv: read.str('NODE_ENV', 'development'),
    port: read.int('PORT', 3000, 0, 65535),
    host: read.str('HOST', '0.0.0.0'),
    databaseUrl: read.url('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/outreach', ['postgres:', 'postgresql:']),
    dbPoolSize: read.int('DB_POOL_SIZE', 10, 1, 500),
    dbConnectTimeoutMs: read.int('DB_CONNECT_TIMEOUT_MS', defaults.dbConnectTimeoutMs ?? 500, 50, 60000),
    dbQueryTimeoutMs: read.int('DB_QUERY_TIMEOUT_MS', defaults.dbQueryTimeoutMs ?? 700, 50, 3600000),
    dbPreparedStatements: read.bool('DB_PREPARED_STATEMENTS', true),
    redisUrl: read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    redisPrefix: read.str('REDIS_PREFIX', 'outreach'),
    logLevel: read.oneOf('LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    rateLimitPerMinute: read.int('RATE_LIMIT_PER_MINUTE', 600, 1, 10000000),
    rateLimitWindowSeconds: read.int('RATE_LIMIT_WINDOW_SECONDS', 60, 1, 3600),
    apiKeyCacheTtlMs: read.int('API_KEY_CACHE_TTL_MS', 5000, 0, 60000),
    metricsToken: read.optional('METRICS_TOKEN'),
    adminToken: readAdminToken(read),
    outboxPollMs: read.int('OUTBOX_POLL_MS', 200, 10, 60000),
    bodyLimitBytes: read.int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    functionSecretsKey: functionSecrets.key,
    functionSecretsKeyIsDefault: functionSecrets.isDefault,
    publicBaseUrl: '',
  };
  platform.publicBaseUrl = read.url('PUBLIC_BASE_URL', `http://localhost:${platform.port}`, ['http:', 'https:']).replace(/\/+$/, '');
  // Every module's keys (its <module>.config.ts, registered when the module was loaded).
  let values: Record<string, unknown> = platform;
  for (const fragment of registeredConfigFragments()) values = { ...values, ...fragment.read(read, values) };
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return new AppConfig(values as unknown as AppConfigValues);
}
