import { AppError } from '@outreach/core';

/**
 * A campaign contact's status. PENDING waits for dispatch; IN_PROGRESS has an attempt in flight;
 * RETRY_SCHEDULED waits for its next attempt; COMPLETED, FAILED and DO_NOT_CALL are final.
 */
export const CONTACT_STATUSES = ['PENDING', 'IN_PROGRESS', 'RETRY_SCHEDULED', 'COMPLETED', 'FAILED', 'DO_NOT_CALL'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export const FINAL_CONTACT_STATUSES: readonly ContactStatus[] = ['COMPLETED', 'FAILED', 'DO_NOT_CALL'];

/**
 * On restart, FAILED and unreached contacts go back to PENDING with fresh attempts. A contact
 * IN_PROGRESS keeps its attempt: its call may still be live, and resetting it would let the
 * dispatcher dial the same person again at the same time; the attempt settles (or is reaped) as usual.
 */
export const RESTART_RESETS: readonly ContactStatus[] = ['FAILED', 'PENDING', 'RETRY_SCHEDULED'];

/** Only FAILED contacts can be retried one by one (400 contact_not_failed). */
export function assertContactRetryable(status: ContactStatus): void {
  if (status !== 'FAILED') {
    throw new AppError('contact_not_failed', { message: `the contact is ${status}; only FAILED contacts can be retried` });
  }
}
