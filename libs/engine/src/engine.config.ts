import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the engine module owns (validated at boot with every other module's). */
export const ENGINE_CONFIG = defineConfig('engine', (env) => ({
  /** How often a RUNNING campaign's dispatcher wakes up while it has work, ms (DISPATCH_TICK_MS, default 2000). */
  dispatchTickMs: env.int('DISPATCH_TICK_MS', 2000, 10, 3_600_000),
  /** Attempt jobs one worker process runs at once (ATTEMPT_CONCURRENCY, default 50). */
  attemptConcurrency: env.int('ATTEMPT_CONCURRENCY', 50, 1, 10_000),
  /** Slack after an agent's maxCallDurationSecs before the reaper takes an attempt back (REAPER_GRACE_SECONDS, default 120). */
  reaperGraceSeconds: env.int('REAPER_GRACE_SECONDS', 120, 0, 86_400),
  /**
   * How long a claimed call may stay undialled before the worker's maintenance adds its attempt job
   * again, the wait after a Redis flush took the job, ms (ATTEMPT_IDLE_MS, default 60000; decisions.md 16.30).
   */
  attemptIdleMs: env.int('ATTEMPT_IDLE_MS', 60_000, 1_000, 86_400_000),
  /** How often the reaper and the campaign sweep run, ms (REAPER_INTERVAL_MS, default 15000). */
  reaperIntervalMs: env.int('REAPER_INTERVAL_MS', 15_000, 100, 3_600_000),
  /**
   * How long after the provider accepted a call, and then how often while it goes on, the engine
   * asks the provider about it should its events not have arrived, ms (CALL_POLL_INTERVAL_MS,
   * default 15000): the longest a lost webhook or a dead process holds a line (decisions.md 16.24).
   */
  callPollIntervalMs: env.int('CALL_POLL_INTERVAL_MS', 15_000, 100, 3_600_000),
  /**
   * Attempt starts, call acceptances or call endings a worker writes in one transaction, at most
   * (ENGINE_GROUP_MAX, default 100; decisions.md 16.37).
   */
  engineGroupMax: env.int('ENGINE_GROUP_MAX', 100, 1, 1_000),
  /**
   * Groups of each kind (starts, acceptances, endings) a worker writes at once: a group's
   * transaction waiting on a row lock holds up the items queued behind it, so more groups cost
   * less head of line and fewer groups fewer transactions (ENGINE_GROUPS_IN_FLIGHT, default 2;
   * decisions.md 16.37).
   */
  engineGroupsInFlight: env.int('ENGINE_GROUPS_IN_FLIGHT', 2, 1, 16),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof ENGINE_CONFIG> {}
}
