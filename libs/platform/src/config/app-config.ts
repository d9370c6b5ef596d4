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
  /** Default price of one started minute of an answered call, minor units (TARIFF_VOICE_MINUTE_MINOR, default 10). */
  tariffVoiceMinuteMinor: number;
  /** Default price of one message, minor units (TARIFF_MESSAGE_MINOR, default 1). */
  tariffMessageMinor: number;
  /** Simulated length of a sandbox call in real time, ms (SANDBOX_VOICE_LATENCY_MS, default 0). */
  sandboxVoiceLatencyMs: number;
  /** How often a RUNNING campaign's dispatcher wakes up while it has work, ms (DISPATCH_TICK_MS, default 2000). */
  dispatchTickMs: number;
  /** Attempt jobs one worker process runs at once (ATTEMPT_CONCURRENCY, default 50). */
  attemptConcurrency: number;
  /** Slack after an agent's maxCallDurationSecs before the reaper takes an attempt back (REAPER_GRACE_SECONDS, default 120). */
  reaperGraceSeconds: number;
  /** How often the reaper and the campaign sweep run, ms (REAPER_INTERVAL_MS, default 15000). */
  reaperIntervalMs: number;
  /** Which call analyser runs (ANALYSIS_PROVIDER): the deterministic sandbox or an OpenAI-compatible API. */
  analysisProvider: 'sandbox' | 'openai';
  /** Base URL of the OpenAI-compatible API, without /chat/completions (ANALYSIS_BASE_URL). */
  analysisBaseUrl: string;
  /** Bearer key of that API (ANALYSIS_API_KEY); required when ANALYSIS_PROVIDER=openai. */
  analysisApiKey: string | null;
  /** Chat model asked for the analysis (ANALYSIS_MODEL). */
  analysisModel: string;
  /** Longest one analysis request may take (ANALYSIS_TIMEOUT_MS). */
  analysisTimeoutMs: number;
  /** Caller id of test calls placed without fromPhoneNumberId (SANDBOX_FROM_NUMBER, E.164); null = not configured. */
  sandboxFromNumber: string | null;
  /** Days an API lead result stays readable before it becomes a tombstone (RESULT_RETENTION_DAYS, default 30). */
  resultRetentionDays: number;
  /** Let result webhooks target private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS, default false). */
  webhookAllowPrivateTargets: boolean;
  /** Longest one result-webhook delivery may take (WEBHOOK_TIMEOUT_MS, default 15000). */
  webhookTimeoutMs: number;
  /** How often the worker looks for result-webhook deliveries that are due (WEBHOOK_SWEEP_MS, default 5000). */
  webhookSweepMs: number;
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
  tariffVoiceMinuteMinor!: number;
  tariffMessageMinor!: number;
  sandboxVoiceLatencyMs!: number;
  dispatchTickMs!: number;
  attemptConcurrency!: number;
  reaperGraceSeconds!: number;
  reaperIntervalMs!: number;
  analysisProvider!: 'sandbox' | 'openai';
  analysisBaseUrl!: string;
  analysisApiKey!: string | null;
  analysisModel!: string;
  analysisTimeoutMs!: number;
  sandboxFromNumber!: string | null;
  resultRetentionDays!: number;
  webhookAllowPrivateTargets!: boolean;
  webhookTimeoutMs!: number;
  webhookSweepMs!: number;

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
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    problems.push(`${name}=${JSON.stringify(raw)}: expected true or false`);
    return fallback;
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
    dbConnectTimeoutMs: int('DB_CONNECT_TIMEOUT_MS', defaults.dbConnectTimeoutMs ?? 500, 50, 60000),
    dbQueryTimeoutMs: int('DB_QUERY_TIMEOUT_MS', defaults.dbQueryTimeoutMs ?? 700, 50, 3600000),
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
    tariffVoiceMinuteMinor: int('TARIFF_VOICE_MINUTE_MINOR', 10, 0, 1_000_000_000),
    tariffMessageMinor: int('TARIFF_MESSAGE_MINOR', 1, 0, 1_000_000_000),
    resultRetentionDays: int('RESULT_RETENTION_DAYS', 30, 1, 3650),
    webhookAllowPrivateTargets: bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000),
    webhookSweepMs: int('WEBHOOK_SWEEP_MS', 5_000, 100, 3_600_000),
    sandboxVoiceLatencyMs: int('SANDBOX_VOICE_LATENCY_MS', 0, 0, 600_000),
    dispatchTickMs: int('DISPATCH_TICK_MS', 2000, 10, 3_600_000),
    attemptConcurrency: int('ATTEMPT_CONCURRENCY', 50, 1, 10_000),
    reaperGraceSeconds: int('REAPER_GRACE_SECONDS', 120, 0, 86_400),
    reaperIntervalMs: int('REAPER_INTERVAL_MS', 15_000, 100, 3_600_000),
    analysisProvider: oneOf('ANALYSIS_PROVIDER', 'sandbox', ['sandbox', 'openai']) as 'sandbox' | 'openai',
    analysisBaseUrl: url('ANALYSIS_BASE_URL', 'https://api.openai.com/v1', ['http:', 'https:']).replace(/\/+$/, ''),
    analysisApiKey: env.ANALYSIS_API_KEY ? env.ANALYSIS_API_KEY : null,
    analysisModel: str('ANALYSIS_MODEL', 'gpt-4o-mini'),
    analysisTimeoutMs: int('ANALYSIS_TIMEOUT_MS', 30_000, 100, 600_000),
    sandboxFromNumber: env.SANDBOX_FROM_NUMBER ? env.SANDBOX_FROM_NUMBER.trim() : null,
  };
  if (values.analysisProvider === 'openai' && values.analysisApiKey === null) {
    problems.push('ANALYSIS_API_KEY: required when ANALYSIS_PROVIDER=openai');
  }
  if (values.sandboxFromNumber !== null && !/^\+[1-9]\d{7,14}$/.test(values.sandboxFromNumber)) {
    problems.push(`SANDBOX_FROM_NUMBER=${JSON.stringify(values.sandboxFromNumber)}: expected an E.164 number such as +14155550100`);
  }
  if (!/^[A-Z]{3}$/.test(values.defaultCurrency)) {
    problems.push(`DEFAULT_CURRENCY=${JSON.stringify(values.defaultCurrency)}: expected an ISO 4217 code such as USD`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return new AppConfig(values);
}
