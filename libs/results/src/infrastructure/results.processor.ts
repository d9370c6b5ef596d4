import { Processor } from '@nestjs/bullmq';
import { OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig, QueueProducer, QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { AttemptReport, DeliverResults } from '../application/deliver-results.use-case';
import { RecordLeadResult } from '../application/record-lead-result.use-case';
import { ResultsHousekeeping } from '../application/results-housekeeping';
import { LeadFinalPayload, ResultsJob, ResultsQueue } from '../application/results-jobs';

export const RESULTS_SWEEP_SCHEDULER_ID = 'results-sweep';
const HOUSEKEEPING_EVERY_MS = 60_000;
/** Deliveries in flight per process (each may wait up to WEBHOOK_TIMEOUT_MS for a receiver). */
const CONCURRENCY = 8;

/**
 * Queue `results`: lead results, webhook deliveries and the repeating sweep. Handlers only call
 * use cases; a retry's delayed job is a wake-up hint (the sweep finds due deliveries anyway).
 */
@Processor(ResultsQueue.Results)
export class ResultsProcessor extends QueueWorkerHost implements OnApplicationBootstrap {
  private lastHousekeeping = 0;

  constructor(
    private readonly record: RecordLeadResult,
    private readonly deliver: DeliverResults,
    private readonly housekeeping: ResultsHousekeeping,
    private readonly producer: QueueProducer,
    private readonly config: AppConfig,
  ) {
    super(ResultsQueue.Results);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.worker.concurrency = CONCURRENCY;
    await this.producer
      .queue(ResultsQueue.Results)
      .upsertJobScheduler(RESULTS_SWEEP_SCHEDULER_ID, { every: this.config.webhookSweepMs }, { name: ResultsJob.Sweep, data: {} })
      .catch((error: Error) => this.log.warn(`could not schedule the results sweep: ${error.message}`));
  }

  async process(job: Job): Promise<unknown> {
    switch (job.name as ResultsJob) {
      case ResultsJob.LeadFinal: {
        const { contactId, callId } = job.data as LeadFinalPayload;
        return { resultId: await this.record.execute(contactId, callId ?? null) };
      }
      case ResultsJob.Deliver: {
        const report = await this.deliver.attempt((job.data as { deliveryId: string }).deliveryId);
        await this.hint(report);
        return report;
      }
      case ResultsJob.Sweep: {
        const reports = await this.deliver.sweep();
        for (const report of reports) await this.hint(report);
        if (Date.now() - this.lastHousekeeping >= HOUSEKEEPING_EVERY_MS) {
          this.lastHousekeeping = Date.now();
          return { delivered: reports.length, ...(await this.housekeeping.run()) };
        }
        return { delivered: reports.length };
      }
      default:
        throw new Error(`results queue: no handler for job ${job.name}`);
    }
  }

  /** A delayed job at the next due time; losing it costs at most one sweep interval. */
  private async hint(report: AttemptReport): Promise<void> {
    if (report.outcome !== 'retry' || !report.nextAttemptAt) return;
    const delay = Math.max(0, report.nextAttemptAt.getTime() - Date.now());
    await this.producer
      .queue(ResultsQueue.Results)
      .add(ResultsJob.Deliver, { deliveryId: report.deliveryId }, { jobId: `deliver-${report.deliveryId}-${report.nextAttemptAt.getTime()}`, delay })
      .catch((error: Error) => this.log.warn(`could not schedule a delivery retry: ${error.message}`));
  }
}
