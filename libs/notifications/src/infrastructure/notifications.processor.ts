import { Processor } from '@nestjs/bullmq';
import { QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { CampaignEventPayload, NotificationsJob, NotificationsQueue } from '../application/notifications-jobs';
import { NotifyCampaignEvent } from '../application/notify-campaign-event.use-case';

/** Queue `notifications`: handlers only call use cases. */
@Processor(NotificationsQueue.Notifications)
export class NotificationsProcessor extends QueueWorkerHost {
  constructor(private readonly notify: NotifyCampaignEvent) {
    super(NotificationsQueue.Notifications);
  }

  protected async handle(job: Job): Promise<unknown> {
    switch (job.name as NotificationsJob) {
      case NotificationsJob.CampaignEvent:
        return this.notify.execute(job.data as CampaignEventPayload);
      default:
        throw new Error(`notifications queue: no handler for job ${job.name}`);
    }
  }
}
