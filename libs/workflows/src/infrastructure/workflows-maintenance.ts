import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, RepeatingTask } from '@outreach/platform';
import { JourneyRuns } from '../application/journey-runs';

/**
 * The runs' safety net (decisions.md 37.12), on every worker's own timer (REAPER_INTERVAL_MS, as
 * the engine's maintenance): the sweep re-adds the jobs of due WAITING runs and of RUNNING
 * runs idle for WORKFLOW_RUN_IDLE_MS. Safe in several workers at once (job ids, the visit check).
 */
@Injectable()
export class WorkflowsMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WorkflowsMaintenance');
  private readonly loop = new RepeatingTask(
    () => this.runs.sweep(this.config.workflowRunIdleMs),
    () => this.config.reaperIntervalMs,
    (error) => this.logger.warn(`workflow run sweep failed: ${error.message}`),
  );

  constructor(
    private readonly runs: JourneyRuns,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start(this.config.reaperIntervalMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
