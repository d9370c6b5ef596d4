import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, RepeatingTask } from '@outreach/platform';
import { ResumeAnalyses } from '../../application/analysis/resume-analyses';

/**
 * The analysis sweep (decisions.md 37.17) on every worker's own timer (REAPER_INTERVAL_MS, as the
 * engine's and the workflows' maintenance): calls over for CALL_ANALYSIS_IDLE_MS with their
 * analysis still PENDING get their job again. Safe in several workers at once (the job id).
 */
@Injectable()
export class CallsMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CallsMaintenance');
  private readonly loop = new RepeatingTask(
    () => this.resume.execute(this.config.callAnalysisIdleMs),
    () => this.config.reaperIntervalMs,
    (error) => this.logger.warn(`call analysis sweep failed: ${error.message}`),
  );

  constructor(
    private readonly resume: ResumeAnalyses,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start(this.config.reaperIntervalMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
