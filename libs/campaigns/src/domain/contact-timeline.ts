/**
 * A contact's timeline (issue 17, item 5; decisions.md 29.3): every event of one campaign contact (an
 * API lead included), in the order it happened. Both lists are closed: a new kind of event or a
 * new reason to wait is one edit here.
 */
export const TIMELINE_EVENT_TYPES = [
  /** The contact entered the campaign (detail: source). */
  'created',
  /** The dispatcher took it for an attempt (detail: attempt). */
  'claimed',
  /** Due, but not dialled (detail: reason, until). Recorded when the reason (or its end) changes, never per tick. */
  'skipped',
  /** The call was placed (detail: attempt, callId, toNumber). */
  'attempt_started',
  /** The call ended (detail: attempt, callId, outcome, status: where the contact went). */
  'attempt_ended',
  /** Another attempt is due later (detail: at, why: the outcome retried, incomplete_call, or next_number). */
  'retry_scheduled',
  /** Reserved for the message legs (issue 12): not written yet. */
  'message_sent',
  'message_delivered',
  'message_replied',
  /** An outreach rule handed the contact to a person (detail: rule, trigger, messageId, replyId, from: the status it left). */
  'handed_off',
  /** An API lead's immutable result was written (detail: resultId). */
  'result_emitted',
  /** The result reached a webhook endpoint with a 2xx (detail: resultId, endpointId, deliveryId, attempt). */
  'webhook_delivered',
] as const;
export type TimelineEventType = (typeof TIMELINE_EVENT_TYPES)[number];

/** Why a due contact was not dialled. */
export const SKIP_REASONS = [
  /** The campaign's daily window or dial days (campaign timezone); until = the next opening. */
  'outside_campaign_window',
  /** Outside the recipient's own hours (recipientHours, decisions.md 28.4); until = the contact's locale's next opening. */
  'outside_recipient_hours',
  /** A public holiday in the recipient's region (skipHolidays); until = the contact's locale's next opening. */
  'holiday',
  /** The campaign's dailyDialCap is used up; until = the next local day's opening. */
  'daily_cap',
  /** The number about to be dialled is on the do-not-call list. */
  'do_not_call',
  /** Reserved: the recipient opted out of a message channel (issue 12). */
  'opted_out',
  /** The circuit breaker paused the campaign (decisions.md 16.26). */
  'circuit_open',
  /** The campaign's budget cannot pay for another call (decisions.md 29.1). */
  'budget_reached',
  /** The workspace's wallet can no longer spend. */
  'credit_exhausted',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Events kept per contact: older ones are dropped as new ones arrive (decisions.md 29.3). */
export const TIMELINE_EVENTS_PER_CONTACT = 200;

export interface TimelineEvent {
  contactId: string;
  type: TimelineEventType;
  at: Date;
  /** What the event says beyond its type; members by type above. */
  detail: Record<string, unknown>;
}
