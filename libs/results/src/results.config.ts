import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the results module owns (validated at boot with every other module's). */
export const RESULTS_CONFIG = defineConfig('results', (env) => ({
  /** Days an API lead result stays readable before it becomes a tombstone (RESULT_RETENTION_DAYS, default 30). */
  resultRetentionDays: env.int('RESULT_RETENTION_DAYS', 30, 1, 3650),
  /** Let result webhooks target private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS, default false). */
  webhookAllowPrivateTargets: env.bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
  /** Longest one result-webhook delivery may take (WEBHOOK_TIMEOUT_MS, default 15000). */
  webhookTimeoutMs: env.int('WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000),
  /** How often the worker looks for result-webhook deliveries that are due (WEBHOOK_SWEEP_MS, default 5000). */
  webhookSweepMs: env.int('WEBHOOK_SWEEP_MS', 5_000, 100, 3_600_000),
  /**
   * How often an API process writes its buffered API-log lines, in one multi-row insert
   * (API_LOG_FLUSH_MS, default 1000). A crash loses at most this interval of logs, never a lead.
   */
  apiLogFlushMs: env.int('API_LOG_FLUSH_MS', 1_000, 10, 60_000),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof RESULTS_CONFIG> {}
}
