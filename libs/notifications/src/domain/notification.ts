/**
 * A campaign notification (decisions.md 13.13): one per member named in the campaign's
 * `notificationUserIds` and event — the campaign completed, was paused by the service (with the
 * reason), or stopped because the wallet ran dry.
 */
export const CAMPAIGN_NOTIFICATION_EVENTS = ['campaign_completed', 'campaign_paused', 'campaign_credit_exhausted'] as const;
export type CampaignNotificationEvent = (typeof CAMPAIGN_NOTIFICATION_EVENTS)[number];

/** What became of the e-mail: none is sent while the workspace has no e-mail sender. */
export const NOTIFICATION_EMAIL_STATUSES = ['not_configured', 'pending', 'sent', 'failed'] as const;
export type NotificationEmailStatus = (typeof NOTIFICATION_EMAIL_STATUSES)[number];

export interface NotificationProps {
  id: string;
  workspaceId: string;
  memberId: string;
  /** The member's address when the notification was written. */
  email: string;
  campaignId: string;
  campaignName: string;
  event: CampaignNotificationEvent;
  /** Why the service paused the campaign (campaign_paused); null otherwise. */
  reason: string | null;
  /** When the campaign changed status (one notification per member and occurrence). */
  occurredAt: Date;
  emailStatus: NotificationEmailStatus;
  createdAt: Date;
}

/** The e-mail a member receives for a notification. */
export function notificationEmail(n: Pick<NotificationProps, 'campaignName' | 'event' | 'reason' | 'occurredAt'>): { subject: string; text: string } {
  const when = n.occurredAt.toISOString();
  switch (n.event) {
    case 'campaign_completed':
      return { subject: `Campaign "${n.campaignName}" completed`, text: `The campaign "${n.campaignName}" completed at ${when}: every contact has a final outcome.` };
    case 'campaign_paused':
      return {
        subject: `Campaign "${n.campaignName}" was paused`,
        text: `The service paused the campaign "${n.campaignName}" at ${when}. Reason: ${n.reason ?? 'not given'}. Resume it once the cause is fixed.`,
      };
    case 'campaign_credit_exhausted':
      return {
        subject: `Campaign "${n.campaignName}" stopped: no credit`,
        text: `The campaign "${n.campaignName}" stopped dialling at ${when} because the wallet has no credit left. Top up the wallet and start it again.`,
      };
  }
}
