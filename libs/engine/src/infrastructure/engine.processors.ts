import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig, QueueProducer } from '@outreach/platform';
import { Job } from 'bullmq';
import { DispatchCampaign } from '../application/dispatch-campaign.use-case';
import { AttemptPayload, DispatchPayload, EngineJob, EngineQueue } from '../application/engine-jobs';
import { ExecuteAttempt } from '../application/execute-attempt.use-case';
import { ReapStuckAttempts } from '../application/reap-stuck-attempts.use-case';

const ERROR_LOG_INTERVAL_MS = 30_000;
/** Dispatch runs of different campaigns in parallel per process (one workspace's runs serialise in Postgres). */
const DISPATCH_CONCURRENCY = 4;
/** The repeatable reaper/sweep job's scheduler id. */
export const REAPER_SCHEDULER_ID = 'engine-reaper';

/** Logs a worker's Redis errors at most every 30 s (BullMQ reconnects by itself). */
class RateLimitedLog {
  private last = 0;
  constructor(private readonly logger: Logger) {}

  warn(message: string): void {
    const now = Date.now();
    if (now - this.last < ERROR_LOG_INTERVAL_MS) return;
    this.last = now;
    this.logger.warn(message);
  }
}

/** Queue `campaigns`: dispatch runs and the repeatable reaper tick. Handlers only call use cases. */
@Processor(EngineQueue.Campaigns)
export class CampaignsProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly log = new RateLimitedLog(new Logger('CampaignsProcessor'));

  constructor(
    private readonly dispatch: DispatchCampaign,
    private readonly reaper: ReapStuckAttempts,
    private readonly producer: QueueProducer,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    this.worker.concurrency = DISPATCH_CONCURRENCY;
    // One schedule across all workers (upsert is idempotent); a Redis outage at boot only delays it.
    await this.producer
      .queue(EngineQueue.Campaigns)
      .upsertJobScheduler(REAPER_SCHEDULER_ID, { every: this.config.reaperIntervalMs }, { name: EngineJob.Reap, data: {} })
      .catch((error: Error) => this.log.warn(`could not schedule the reaper: ${error.message}`));
  }

  async process(job: Job): Promise<unknown> {
    switch (job.name as EngineJob) {
      case EngineJob.Dispatch:
        return this.dispatch.execute((job.data as DispatchPayload).campaignId);
      case EngineJob.Reap: {
        const reaped = await this.reaper.execute();
        const swept = await this.reaper.sweep();
        return { ...reaped, swept };
      }
      default:
        throw new Error(`campaigns queue: no handler for job ${job.name}`);
    }
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.log.warn(`campaigns worker: ${error.message}`);
  }
}

/** Queue `attempts`: one call per job; ATTEMPT_CONCURRENCY calls in flight per process. */
@Processor(EngineQueue.Attempts)
export class AttemptsProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly log = new RateLimitedLog(new Logger('AttemptsProcessor'));

  constructor(
    private readonly attempt: ExecuteAttempt,
    private readonly config: AppConfig,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.attemptConcurrency;
  }

  async process(job: Job): Promise<unknown> {
    switch (job.name as EngineJob) {
      case EngineJob.Attempt: {
        const { contactId, attemptSeq } = job.data as AttemptPayload;
        const report = await this.attempt.execute(contactId, attemptSeq);
        return { state: report.state };
      }
      default:
        throw new Error(`attempts queue: no handler for job ${job.name}`);
    }
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.log.warn(`attempts worker: ${error.message}`);
  }
}
