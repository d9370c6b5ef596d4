import { AppError } from '@outreach/core';
import { allowedFrom, canTransition, ContactStatus } from './contact-state-machine';

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
  createdAt: Date;
  updatedAt: Date;
}

/** Only contacts the `retry` transition leaves from (FAILED) can be retried one by one (400 contact_not_failed). */
export function assertContactRetryable(status: ContactStatus): void {
  if (!canTransition(status, 'retry')) {
    throw new AppError('contact_not_failed', {
      message: `the contact is ${status}; only ${allowedFrom('retry').join(', ')} contacts can be retried`,
    });
  }
}
