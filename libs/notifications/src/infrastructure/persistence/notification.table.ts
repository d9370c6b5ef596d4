import { column, defineTable } from '@outreach/platform';
import type { CampaignNotificationEvent, NotificationEmailStatus, NotificationProps } from '../../domain/notification';

/** `notifications` (migration 1763700009100). */
export const NOTIFICATIONS = defineTable<NotificationProps>('notifications', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  memberId: column.uuid('member_id'),
  email: column.text('email'),
  campaignId: column.uuid('campaign_id'),
  campaignName: column.text('campaign_name'),
  event: column.text<CampaignNotificationEvent>('event'),
  reason: column.nullableText('reason'),
  occurredAt: column.timestamp('occurred_at'),
  emailStatus: column.text<NotificationEmailStatus>('email_status'),
  createdAt: column.timestamp('created_at'),
});

/** UNIQUE (campaign_id, event, occurred_at, member_id): one notification per member and occurrence. */
export const NOTIFICATIONS_OCCURRENCE_KEY = 'notifications_occurrence_member_key';
