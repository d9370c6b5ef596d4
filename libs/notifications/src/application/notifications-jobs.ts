import type { OutboxJob } from '@outreach/core';
import type { CampaignNotificationEvent } from '../domain/notification';

export enum NotificationsQueue {
  Notifications = 'notifications',
}

export enum NotificationsJob {
  /** `CampaignEventPayload`: write one notification per member and send its e-mail. */
  CampaignEvent = 'campaign-event',
}

/**
 * The facts of one campaign status change, as the campaign had them when it changed: the members
 * to tell are those named then. Written by the campaigns module through the outbox, in the
 * transaction that changes the status.
 */
export interface CampaignEventPayload {
  workspaceId: string;
  campaignId: string;
  campaignName: string;
  event: CampaignNotificationEvent;
  reason: string | null;
  /** ISO instant of the change. */
  occurredAt: string;
  memberIds: string[];
}

export function campaignEventJob(payload: CampaignEventPayload): OutboxJob {
  return {
    queue: NotificationsQueue.Notifications,
    name: NotificationsJob.CampaignEvent,
    payload: { ...payload },
    jobId: `notify-${payload.campaignId}-${payload.event}-${new Date(payload.occurredAt).getTime()}`,
  };
}
