import { AppError } from '@outreach/core';
import { allowedFrom, canTransition, ContactStatus } from './contact-state-machine';
import type { ContactLeg } from './contact-legs';

/** A campaign contact as stored (one row of campaign_contacts); views pick from it. */
export interface ContactRecord {
  id: string;
  /** Upload order within the campaign (dispatch order of PENDING contacts). */
  seq: number;
  campaignId: string;
  workspaceId: string;
  phone: string;
  altPhones: string[];
  name: string | null;
  fields: Record<string, string>;
  status: ContactStatus;
  /** Attempts in the current run (restart resets it). */
  attempts: number;
  /** Every claim ever (never reset): names the attempt. */
  attemptSeq: number;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  lastOutcome: string | null;
  attemptStartedAt: Date | null;
  /** When the reaper may take the attempt back. */
  attemptDeadlineAt: Date | null;
  /** The attempt's call once it has started. */
  currentCallId: string | null;
  incompleteRetries: number;
  /** The number being dialled: 0 the primary `phone`, n the n-th of `altPhones` (decisions.md 16.19). */
  phoneIndex: number;
  /** Attempts made on earlier numbers in this run: this number's attempts are `attempts - phoneFirstAttempt`. */
  phoneFirstAttempt: number;
  /** The number on which a person answered (transferred or completed), null until one did. */
  connectedPhone: string | null;
  /** Talk time of the contact's last call, ms (null before one ended); finish-interrupted reads it (decisions.md 35). */
  lastTalkMs: number | null;
  /** Follow-up calls scheduled in this run for an interested lead (followupMaxAttempts). */
  followups: number;
  /** Churn re-contacts scheduled in this run for a lost contact (churnMaxAttempts). */
  churnRounds: number;
  /** 0 for a contact of the campaign's own list; n for one referred by a contact of depth n − 1 (referralMaxDepth). */
  referralDepth: number;
  /** The contact whose call named this one, for a referral. */
  referredBy: string | null;
  /** The recipient's IANA zone, derived from the primary number at creation; null: unknown, the campaign's zone applies (decisions.md 28.2). */
  recipientZone: string | null;
  /** Whose public holidays apply ("JP", "US-NY"); null when unknown. */
  recipientRegion: string | null;
  /** The leg the contact's next (or current) attempt runs; null: the channel's first leg (decisions.md 33). */
  leg: ContactLeg | null;
  /** Messages sent on the current message leg (its undelivered retries count from here; names the send's idempotency key). */
  messageSends: number;
  /** Transient refusals of the current send (messageRetryTransientMaxAttempts). */
  messageTransient: number;
  /** When the current message leg first went to the provider (the retry and reply windows count from it). */
  messageLegAt: Date | null;
  /** The message leg's outcome (sent, delivered, read, replied, failed, opted_out…), null before one. */
  messageOutcome: string | null;
  /** The call a WhatsApp follow-up comes after (its evaluation picks the template: whatsappTemplateByMetric). */
  followupCallId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The number an attempt of the contact dials: its primary, or the alternate it has moved on to. */
export function numberToDial(contact: Pick<ContactRecord, 'phone' | 'altPhones' | 'phoneIndex'>): string {
  return contact.phoneIndex === 0 ? contact.phone : (contact.altPhones[contact.phoneIndex - 1] ?? contact.phone);
}

/** How many of the contact's numbers come after the one being dialled. */
export function numbersLeftAfter(contact: Pick<ContactRecord, 'altPhones' | 'phoneIndex'>): number {
  return Math.max(0, contact.altPhones.length - contact.phoneIndex);
}

/** Only contacts the `retry` transition leaves from (FAILED) can be retried one by one (400 contact_not_failed). */
export function assertContactRetryable(status: ContactStatus): void {
  if (!canTransition(status, 'retry')) {
    throw new AppError('contact_not_failed', {
      message: `the contact is ${status}; only ${allowedFrom('retry').join(', ')} contacts can be retried`,
    });
  }
}
