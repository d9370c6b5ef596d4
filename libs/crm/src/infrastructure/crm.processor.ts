import { Processor } from '@nestjs/bullmq';
import { QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { CrmImports } from '../application/crm-imports.service';
import { CrmJob, CrmQueue } from '../application/crm-jobs';
import { OrderNotifications } from '../application/order-notifications.service';

/**
 * Queue `crm`: handlers only call use cases. An import holds its job while it reads pages; a dead
 * worker's job is handed on after its 15 s lock lapses (stalled check every 15 s) and resumes from
 * the import's stored cursor.
 */
@Processor(CrmQueue.Crm, { lockDuration: 15_000, stalledInterval: 15_000 })
export class CrmProcessor extends QueueWorkerHost {
  constructor(
    private readonly imports: CrmImports,
    private readonly orderNotifications: OrderNotifications,
  ) {
    super(CrmQueue.Crm);
  }

  protected async handle(job: Job): Promise<unknown> {
    switch (job.name as CrmJob) {
      case CrmJob.Import:
        return this.imports.run(job.data as { importId: string });
      case CrmJob.OrderNotification:
        return this.orderNotifications.deliver(job.data as { notificationId: string });
      default:
        throw new Error(`crm queue: no handler for job ${job.name}`);
    }
  }
}
