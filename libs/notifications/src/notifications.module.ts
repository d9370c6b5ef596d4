import { Module } from '@nestjs/common';
import { workerQueues } from '@outreach/platform';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { NotificationQueries } from './application/notification-queries';
import { NotificationsQueue } from './application/notifications-jobs';
import { NotificationEmailSender, NotificationRepository } from './application/notifications.ports';
import { NotifyCampaignEvent } from './application/notify-campaign-event.use-case';
import { NoNotificationEmailSender } from './infrastructure/no-email-sender';
import { NotificationsProcessor } from './infrastructure/notifications.processor';
import { SqlNotificationRepository } from './infrastructure/persistence/sql-notification.repository';

/** Campaign notifications without a processor: for the CLI (listing) and the worker. */
@Module({
  imports: [WorkspacesCoreModule],
  providers: [
    NotifyCampaignEvent,
    NotificationQueries,
    { provide: NotificationRepository, useClass: SqlNotificationRepository },
    { provide: NotificationEmailSender, useClass: NoNotificationEmailSender },
  ],
  exports: [NotifyCampaignEvent, NotificationQueries],
})
export class NotificationsCoreModule {}

/** The worker side: queue `notifications`. */
@Module({
  imports: [NotificationsCoreModule, workerQueues(NotificationsQueue.Notifications)],
  providers: [NotificationsProcessor],
})
export class NotificationsWorkerModule {}
