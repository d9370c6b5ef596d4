import { Processor } from '@nestjs/bullmq';
import { QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { IngestDocument } from '../application/ingest-document.use-case';
import { KnowledgeJob, KnowledgeQueue } from '../application/knowledge-jobs';

/** Queue `knowledge`: handlers only call use cases. */
@Processor(KnowledgeQueue.Knowledge)
export class KnowledgeProcessor extends QueueWorkerHost {
  constructor(private readonly ingest: IngestDocument) {
    super(KnowledgeQueue.Knowledge);
  }

  protected async handle(job: Job): Promise<unknown> {
    switch (job.name as KnowledgeJob) {
      case KnowledgeJob.Ingest:
        return this.ingest.execute(job.data as { documentId: string });
      default:
        throw new Error(`knowledge queue: no handler for job ${job.name}`);
    }
  }
}
