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
}

export type NextStep =
  | { status: 'COMPLETED' | 'FAILED'; reason: string }
  | { status: 'RETRY_SCHEDULED'; delayMinutes: number; incompleteRetry: boolean; nextNumber: boolean; reason: string };

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
  if (CONNECTED.has(facts.outcome)) {
    const incomplete = facts.durationMs < settings.incompleteCallSeconds * 1000;
    if (settings.incompleteRetryEnabled && incomplete && facts.incompleteRetries < settings.incompleteRetryMaxAttempts) {
      const delay = settings.incompleteRetryDelaysMinutes[facts.incompleteRetries] ?? settings.incompleteRetryIntervalMinutes;
      return { status: 'RETRY_SCHEDULED', delayMinutes: atLeastCooldown(delay), incompleteRetry: true, nextNumber: false, reason: 'incomplete_call' };
    }
    return { status: 'COMPLETED', reason: facts.outcome };
  }
  if (facts.outcome === 'voicemail' && settings.skipRetryOnFirstVoicemail) {
    return { status: 'FAILED', reason: 'voicemail_no_retry' };
  }
  // Attempts that were not incomplete-call retries: the first one plus the regular retries so far.
  const regularAttempts = facts.attempts - facts.incompleteRetries;
  if (regularAttempts <= settings.retryCount) {
    const delay = settings.retryDelaysMinutes[regularAttempts - 1] ?? settings.cooldownMinutes;
    return { status: 'RETRY_SCHEDULED', delayMinutes: atLeastCooldown(delay), incompleteRetry: false, nextNumber: false, reason: facts.outcome };
  }
  if (UNREACHED.has(facts.outcome) && facts.numbersLeft > 0) {
    return { status: 'RETRY_SCHEDULED', delayMinutes: settings.cooldownMinutes, incompleteRetry: false, nextNumber: true, reason: 'next_number' };
  }
  return { status: 'FAILED', reason: 'retries_exhausted' };
}
