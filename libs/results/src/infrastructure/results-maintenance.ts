import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, QueueProducer, RateLimitedLog, RepeatingTask } from '@outreach/platform';
import { AttemptReport, DeliverResults } from '../application/deliver-results.use-case';
import { ResultsHousekeeping } from '../application/results-housekeeping';
import { ResultsJob, ResultsQueue } from '../application/results-jobs';

const HOUSEKEEPING_EVERY_MS = 60_000;

/**
 * Every worker's own timer (WEBHOOK_SWEEP_MS): send the webhook deliveries that are due, and once
 * a minute purge expired results and old API logs. A local timer rather than a BullMQ job
 * scheduler, so due deliveries go out as soon as Redis is not needed (the sweep sends over HTTP
 * and leases each delivery in Postgres); safe in several workers at once.
 */
@Injectable()
export class ResultsMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new RateLimitedLog(new Logger('ResultsMaintenance'));
  private readonly loop = new RepeatingTask(
    () => this.run(),
    () => this.config.webhookSweepMs,
    (error) => this.log.warn(`results sweep failed: ${error.message}`),
  );
  private lastHousekeeping = 0;

  constructor(
    private readonly deliver: DeliverResults,
    private readonly housekeeping: ResultsHousekeeping,
    private readonly producer: QueueProducer,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start(this.config.webhookSweepMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  async run(): Promise<{ delivered: number }> {
    const reports = await this.deliver.sweep();
    for (const report of reports) await this.hint(report);
    if (Date.now() - this.lastHousekeeping >= HOUSEKEEPING_EVERY_MS) {
      this.lastHousekeeping = Date.now();
      return { delivered: reports.length, ...(await this.housekeeping.run()) };
    }
    return { delivered: reports.length };
  }

  /** A delayed job at a retry's due time; losing it costs at most one sweep interval. */
  async hint(report: AttemptReport): Promise<void> {
    if (report.outcome !== 'retry' || !report.nextAttemptAt) return;
    const delay = Math.max(0, report.nextAttemptAt.getTime() - Date.now());
    await this.producer
      .add(ResultsQueue.Results, ResultsJob.Deliver, { deliveryId: report.deliveryId }, `deliver-${report.deliveryId}-${report.nextAttemptAt.getTime()}`, { delay })
      .catch((error: Error) => this.log.warn(`could not schedule a delivery retry: ${error.message}`));
  }
}
