import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the workflows module owns (validated at boot with every other module's). */
export const WORKFLOWS_CONFIG = defineConfig('workflows', (env) => ({
  /**
   * How long a RUNNING run (not at a call) may stay unchanged before the sweep adds its step job
   * again (WORKFLOW_RUN_IDLE_MS, default a minute; decisions.md 37.17): the time a run whose job was
   * lost to a Redis flush or a killed worker waits. Shorter re-adds sooner; the job id and the
   * visit check make a job added while the first one still runs change nothing.
   */
  workflowRunIdleMs: env.int('WORKFLOW_RUN_IDLE_MS', 60_000, 1_000, 86_400_000),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof WORKFLOWS_CONFIG> {}
}
