import { Processor } from '@nestjs/bullmq';
import { QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { ExportsJob, ExportsQueue } from '../application/exports-jobs';
import { RunExport } from '../application/run-export.use-case';

/** Queue `exports`: handlers only call use cases. */
@Processor(ExportsQueue.Exports)
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
