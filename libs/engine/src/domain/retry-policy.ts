/** The campaign settings that decide what follows an attempt. */
export interface RetrySettings {
  retryCount: number;
  retryDelaysMinutes: readonly number[];
  cooldownMinutes: number;
  skipRetryOnFirstVoicemail: boolean;
  incompleteRetryEnabled: boolean;
  incompleteRetryMaxAttempts: number;
  incompleteRetryIntervalMinutes: number;
  incompleteRetryDelaysMinutes: readonly number[];
  incompleteCallSeconds: number;
  followupEnabled: boolean;
  followupMaxAttempts: number;
  churnEnabled: boolean;
  churnMaxAttempts: number;
  churnIntervalHours: number;
  churnDelaysHours: readonly number[];
}

export interface AttemptFacts {
  /** Attempts in this run, including the one that just ended. */
  attempts: number;
  /** Incomplete-call retries already scheduled in this run. */
  incompleteRetries: number;
  outcome: string;
  durationMs: number;
  /** The contact's numbers after the one just dialled (its alternates not yet tried). */
  numbersLeft: number;
  /** Follow-up calls already scheduled in this run (decisions.md 35.3). */
  followups?: number;
  /** Churn re-contacts already scheduled in this run (decisions.md 35.4). */
  churnRounds?: number;
  /** What the call concluded about the lead's interest: true interested, false not, null unknown (decisions.md 35.3). */
  interested?: boolean | null;
}

/** Why a retry is scheduled beyond the plain retry budget: a follow-up of an interested lead, or a churn re-contact. */
export type Sequence = 'followup' | 'churn';

export type NextStep =
  | { status: 'COMPLETED' | 'FAILED'; reason: string }
  | { status: 'RETRY_SCHEDULED'; delayMinutes: number; incompleteRetry: boolean; nextNumber: boolean; reason: string; sequence?: Sequence };

/** A human answered: the contact was reached. */
const CONNECTED = new Set(['transferred', 'completed']);
/** Nobody answered the number, or it could not be reached: its alternate is worth a try. Not voicemail (the number works and a message was left). */
const UNREACHED = new Set(['no_answer', 'busy', 'carrier_failure']);

/**
 * Where a contact goes after an attempt (decisions.md 16.7):
 * - transferred / completed → COMPLETED, unless the call was shorter than incompleteCallSeconds and
 *   incomplete-call retries are on and left (incompleteRetryMaxAttempts), then a retry after
 *   incompleteRetryDelaysMinutes[n] (fallback incompleteRetryIntervalMinutes);
 * - no_answer / busy / voicemail / carrier_failure → a retry after retryDelaysMinutes[n] (fallback
 *   cooldownMinutes) while fewer than retryCount retries have been made, else FAILED;
 *   skipRetryOnFirstVoicemail ends the contact (FAILED) on its first voicemail;
 * - a number left unreached (no_answer / busy / carrier_failure) once its retries are spent moves
 *   the contact on to its next alternate number, after cooldownMinutes, with attempts of its own
 *   under the same rules (decisions.md 16.19); `attempts` counts the attempts on this number.
 * Every delay is at least cooldownMinutes, the minimum gap between two attempts of one contact.
 */
export function nextStep(settings: RetrySettings, facts: AttemptFacts): NextStep {
  const atLeastCooldown = (minutes: number) => Math.max(minutes, settings.cooldownMinutes);
  const followups = facts.followups ?? 0;
  const churnRounds = facts.churnRounds ?? 0;
  if (CONNECTED.has(facts.outcome)) {
    const incomplete = facts.durationMs < settings.incompleteCallSeconds * 1000;
    if (settings.incompleteRetryEnabled && incomplete && facts.incompleteRetries < settings.incompleteRetryMaxAttempts) {
      const delay = settings.incompleteRetryDelaysMinutes[facts.incompleteRetries] ?? settings.incompleteRetryIntervalMinutes;
      return { status: 'RETRY_SCHEDULED', delayMinutes: atLeastCooldown(delay), incompleteRetry: true, nextNumber: false, reason: 'incomplete_call' };
    }
    // An interested lead is called again, as soon as the cooldown allows (decisions.md 35.3).
    if (settings.followupEnabled && facts.interested === true && followups < settings.followupMaxAttempts) {
      return { status: 'RETRY_SCHEDULED', delayMinutes: settings.cooldownMinutes, incompleteRetry: false, nextNumber: false, reason: 'followup', sequence: 'followup' };
    }
    return { status: 'COMPLETED', reason: facts.outcome };
  }
  if (facts.outcome === 'voicemail' && settings.skipRetryOnFirstVoicemail) {
    return { status: 'FAILED', reason: 'voicemail_no_retry' };
  }
  // Attempts of the regular retry budget: the first one plus the regular retries so far (not the
  // incomplete-call retries, follow-ups and churn re-contacts, which have budgets of their own).
  const regularAttempts = facts.attempts - facts.incompleteRetries - followups - churnRounds;
  if (regularAttempts <= settings.retryCount) {
    const delay = settings.retryDelaysMinutes[regularAttempts - 1] ?? settings.cooldownMinutes;
    return { status: 'RETRY_SCHEDULED', delayMinutes: atLeastCooldown(delay), incompleteRetry: false, nextNumber: false, reason: facts.outcome };
  }
  if (UNREACHED.has(facts.outcome) && facts.numbersLeft > 0) {
    return { status: 'RETRY_SCHEDULED', delayMinutes: settings.cooldownMinutes, incompleteRetry: false, nextNumber: true, reason: 'next_number' };
  }
  // A contact lost after every retry on every number is re-contacted later, hours apart (decisions.md 35.4).
  if (settings.churnEnabled && churnRounds < settings.churnMaxAttempts) {
    const hours = settings.churnDelaysHours[churnRounds] ?? settings.churnIntervalHours;
    return { status: 'RETRY_SCHEDULED', delayMinutes: atLeastCooldown(hours * 60), incompleteRetry: false, nextNumber: false, reason: 'churn', sequence: 'churn' };
  }
  return { status: 'FAILED', reason: 'retries_exhausted' };
}
