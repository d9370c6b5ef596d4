import { Processor } from '@nestjs/bullmq';
import { OnApplicationBootstrap } from '@nestjs/common';
import { QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { DeliverResults } from '../application/deliver-results.use-case';
import { RecordLeadResult } from '../application/record-lead-result.use-case';
import { LeadFinalPayload, ResultsJob, ResultsQueue } from '../application/results-jobs';
import { ResultsMaintenance } from './results-maintenance';

/** Deliveries in flight per process (each may wait up to WEBHOOK_TIMEOUT_MS for a receiver). */
const CONCURRENCY = 8;

/**
 * Queue `results`: lead results and webhook deliveries. Handlers only call use cases; a retry's
 * delayed job is a wake-up hint (ResultsMaintenance's sweep finds due deliveries anyway).
 */
@Processor(ResultsQueue.Results)
export class ResultsProcessor extends QueueWorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly record: RecordLeadResult,
    private readonly deliver: DeliverResults,
    private readonly maintenance: ResultsMaintenance,
  ) {
    super(ResultsQueue.Results);
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = CONCURRENCY;
  }

  protected async handle(job: Job): Promise<unknown> {
    switch (job.name as ResultsJob) {
      case ResultsJob.LeadFinal: {
        const { contactId, callId } = job.data as LeadFinalPayload;
        return { resultId: await this.record.execute(contactId, callId ?? null) };
      }
      case ResultsJob.Deliver: {
        const report = await this.deliver.attempt((job.data as { deliveryId: string }).deliveryId);
        await this.maintenance.hint(report);
        return report;
      }
      default:
        throw new Error(`results queue: no handler for job ${job.name}`);
    }
  }
}
