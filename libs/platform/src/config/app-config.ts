import { createHash } from 'node:crypto';

/**
 * Configuration, read once from the environment and validated at boot. A bad value stops the
 * process with one readable line per variable; nothing reads process.env elsewhere.
 */
export interface AppConfigValues {
  nodeEnv: string;
  port: number;
  host: string;
  databaseUrl: string;
  dbPoolSize: number;
  dbConnectTimeoutMs: number;
  dbQueryTimeoutMs: number;
  redisUrl: string;
  redisPrefix: string;
  logLevel: string;
  rateLimitPerMinute: number;
  rateLimitWindowSeconds: number;
  metricsToken: string | null;
  outboxPollMs: number;
  defaultConcurrency: number;
  defaultAgentQuota: number;
  defaultCurrency: string;
  bodyLimitBytes: number;
  /** Largest upload accepted by POST /uploads (UPLOAD_MAX_BYTES, default 20 MB). */
  uploadMaxBytes: number;
  /** How long an upload can be imported into a campaign (UPLOAD_TTL_HOURS, default 24). */
  uploadTtlHours: number;
  /** AES-256 key (32 bytes) sealing custom-function header values at rest (FUNCTION_SECRETS_KEY). */
  functionSecretsKey: Buffer;
  /** True when FUNCTION_SECRETS_KEY was not set and the development key is in use. */
  functionSecretsKeyIsDefault: boolean;
}

export class AppConfig implements AppConfigValues {
  nodeEnv!: string;
  port!: number;
  host!: string;
  databaseUrl!: string;
  dbPoolSize!: number;
  dbConnectTimeoutMs!: number;
  dbQueryTimeoutMs!: number;
  redisUrl!: string;
  redisPrefix!: string;
  logLevel!: string;
  rateLimitPerMinute!: number;
  rateLimitWindowSeconds!: number;
  metricsToken!: string | null;
  outboxPollMs!: number;
  defaultConcurrency!: number;
  defaultAgentQuota!: number;
  defaultCurrency!: string;
  bodyLimitBytes!: number;
  uploadMaxBytes!: number;
  uploadTtlHours!: number;
  functionSecretsKey!: Buffer;
  functionSecretsKeyIsDefault!: boolean;

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
}

export function loadConfig(env: Env = process.env, defaults: ConfigDefaults = {}): AppConfig {
  const problems: string[] = [];

  const str = (name: string, fallback: string): string => {
    const raw = env[name];
    return raw === undefined || raw === '' ? fallback : raw;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name}=${JSON.stringify(raw)}: expected a whole number from ${min} to ${max}`);
      return fallback;
    }
    return Number(raw);
  };
  const url = (name: string, fallback: string, protocols: string[]): string => {
    const value = str(name, fallback);
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name}: expected a ${protocols.join(' or ')} URL, got protocol ${parsed.protocol}`);
      }
    } catch {
      problems.push(`${name}: not a valid URL`);
    }
    return value;
  };
  const oneOf = (name: string, fallback: string, values: string[]): string => {
    const value = str(name, fallback);
    if (!values.includes(value)) problems.push(`${name}=${JSON.stringify(value)}: expected one of ${values.join(', ')}`);
    return value;
  };

  // FUNCTION_SECRETS_KEY: 32 bytes as 64 hex characters or base64. Required in production; elsewhere a
  // fixed development key (derived from a constant, so restarts can still read what they sealed).
  const secretsKey = (): { key: Buffer; isDefault: boolean } => {
    const raw = env.FUNCTION_SECRETS_KEY;
    if (raw === undefined || raw === '') {
      if (str('NODE_ENV', 'development') === 'production') problems.push('FUNCTION_SECRETS_KEY: required in production (32 bytes, hex or base64)');
      return { key: createHash('sha256').update('outreach development function-secrets key').digest(), isDefault: true };
    }
    const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length !== 32) problems.push('FUNCTION_SECRETS_KEY: expected 32 bytes as 64 hex characters or base64');
    return { key, isDefault: false };
  };
  const functionSecrets = secretsKey();

  const values: AppConfigValues = {
    nodeEnv: str('NODE_ENV', 'development'),
    port: int('PORT', 3000, 0, 65535),
    host: str('HOST', '0.0.0.0'),
    databaseUrl: url('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/outreach', ['postgres:', 'postgresql:']),
    dbPoolSize: int('DB_POOL_SIZE', 10, 1, 500),
    dbConnectTimeoutMs: int('DB_CONNECT_TIMEOUT_MS', 500, 50, 60000),
    dbQueryTimeoutMs: int('DB_QUERY_TIMEOUT_MS', defaults.dbQueryTimeoutMs ?? 900, 50, 3600000),
    redisUrl: url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    redisPrefix: str('REDIS_PREFIX', 'outreach'),
    logLevel: oneOf('LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 600, 1, 10000000),
    rateLimitWindowSeconds: int('RATE_LIMIT_WINDOW_SECONDS', 60, 1, 3600),
    metricsToken: env.METRICS_TOKEN ? env.METRICS_TOKEN : null,
    outboxPollMs: int('OUTBOX_POLL_MS', 200, 10, 60000),
    defaultConcurrency: int('DEFAULT_CONCURRENCY', 10, 1, 10000),
    defaultAgentQuota: int('DEFAULT_AGENT_QUOTA', 50, 0, 100000),
    defaultCurrency: str('DEFAULT_CURRENCY', 'USD'),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    uploadMaxBytes: int('UPLOAD_MAX_BYTES', 20 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    uploadTtlHours: int('UPLOAD_TTL_HOURS', 24, 1, 24 * 365),
    functionSecretsKey: functionSecrets.key,
    functionSecretsKeyIsDefault: functionSecrets.isDefault,
  };
  if (!/^[A-Z]{3}$/.test(values.defaultCurrency)) {
    problems.push(`DEFAULT_CURRENCY=${JSON.stringify(values.defaultCurrency)}: expected an ISO 4217 code such as USD`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return new AppConfig(values);
}
