// Public surface of the notifications module: campaign notifications to workspace members
// (decisions.md 13.13). The campaigns module writes the job; this module stores and sends.
import { defineMigrations } from '@outreach/platform';
import { Notifications1763700009100 } from './infrastructure/migrations/1763700009100-notifications';

export { NotificationsCoreModule, NotificationsWorkerModule } from './notifications.module';
export { campaignEventJob, CampaignEventPayload, NotificationsJob, NotificationsQueue } from './application/notifications-jobs';
export { NotificationEmailSender, EmailMessage } from './application/notifications.ports';
export { NotifyCampaignEvent, NotifyReport } from './application/notify-campaign-event.use-case';
export { NotificationQueries, NotificationView } from './application/notification-queries';
export { CAMPAIGN_NOTIFICATION_EVENTS, CampaignNotificationEvent } from './domain/notification';
export const NOTIFICATIONS_MIGRATIONS = defineMigrations('notifications', [Notifications1763700009100]);
