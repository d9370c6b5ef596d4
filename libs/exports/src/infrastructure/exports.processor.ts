import { Processor } from '@nestjs/bullmq';
import { QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { ExportsJob, ExportsQueue } from '../application/exports-jobs';
import { RunExport } from '../application/run-export.use-case';

/**
 * Queue `exports`: handlers only call use cases. An export holds its job for seconds to minutes, so
 * a dead worker's job is noticed sooner than BullMQ's default (30 s lock + 30 s check): its lock
 * lasts 15 s (renewed every 7.5 s while the export awaits its reads and writes) and stalled jobs are
 * looked for every 15 s (decisions.md 26.6).
 */
@Processor(ExportsQueue.Exports, { lockDuration: 15_000, stalledInterval: 15_000 })
export class ExportsProcessor extends QueueWorkerHost {
  constructor(private readonly run: RunExport) {
    super(ExportsQueue.Exports);
  }

  protected async handle(job: Job): Promise<unknown> {
    switch (job.name as ExportsJob) {
      case ExportsJob.Run:
        return this.run.execute(job.data as { exportId: string });
      default:
        throw new Error(`exports queue: no handler for job ${job.name}`);
    }
  }
}
