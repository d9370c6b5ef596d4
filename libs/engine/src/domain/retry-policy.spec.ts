import { nextStep, RetrySettings } from './retry-policy';

const settings: RetrySettings = {
  retryCount: 2,
  retryDelaysMinutes: [10, 30],
  cooldownMinutes: 5,
  skipRetryOnFirstVoicemail: false,
  incompleteRetryEnabled: false,
  incompleteRetryMaxAttempts: 1,
  incompleteRetryIntervalMinutes: 15,
  incompleteRetryDelaysMinutes: [],
  incompleteCallSeconds: 20,
  followupEnabled: false,
  followupMaxAttempts: 1,
  churnEnabled: false,
  churnMaxAttempts: 1,
  churnIntervalHours: 24,
  churnDelaysHours: [],
};
type Extra = Partial<{ durationMs: number; incompleteRetries: number; numbersLeft: number; followups: number; churnRounds: number; interested: boolean | null }>;
const facts = (outcome: string, attempts: number, extra: Extra = {}) => ({
  outcome,
  attempts,
  durationMs: extra.durationMs ?? 0,
  incompleteRetries: extra.incompleteRetries ?? 0,
  numbersLeft: extra.numbersLeft ?? 0,
  followups: extra.followups ?? 0,
  churnRounds: extra.churnRounds ?? 0,
  interested: extra.interested ?? null,
});

describe('retry policy', () => {
  it('retries retryCount times with retryDelaysMinutes, then FAILED', () => {
    expect(nextStep(settings, facts('busy', 1))).toMatchObject({ status: 'RETRY_SCHEDULED', delayMinutes: 10 });
    expect(nextStep(settings, facts('no_answer', 2))).toMatchObject({ status: 'RETRY_SCHEDULED', delayMinutes: 30 });
    expect(nextStep(settings, facts('carrier_failure', 3))).toMatchObject({ status: 'FAILED', reason: 'retries_exhausted' });
  });

  it('falls back to cooldownMinutes past the delay list, and never waits less than the cooldown', () => {
    expect(nextStep({ ...settings, retryCount: 3, retryDelaysMinutes: [1] }, facts('busy', 1))).toMatchObject({ delayMinutes: 5 });
    expect(nextStep({ ...settings, retryCount: 3, retryDelaysMinutes: [10] }, facts('busy', 2))).toMatchObject({ delayMinutes: 5 });
  });

  it('retryCount 0: one attempt only', () => {
    expect(nextStep({ ...settings, retryCount: 0 }, facts('no_answer', 1))).toMatchObject({ status: 'FAILED' });
  });

  it('transferred and completed complete the contact', () => {
    expect(nextStep(settings, facts('completed', 1, { durationMs: 5_000 }))).toMatchObject({ status: 'COMPLETED' });
    expect(nextStep(settings, facts('transferred', 3))).toMatchObject({ status: 'COMPLETED' });
  });

  it('skipRetryOnFirstVoicemail ends the contact on voicemail; otherwise voicemail retries', () => {
    expect(nextStep({ ...settings, skipRetryOnFirstVoicemail: true }, facts('voicemail', 1))).toMatchObject({ status: 'FAILED', reason: 'voicemail_no_retry' });
    expect(nextStep(settings, facts('voicemail', 1))).toMatchObject({ status: 'RETRY_SCHEDULED' });
    expect(nextStep({ ...settings, skipRetryOnFirstVoicemail: true }, facts('busy', 1))).toMatchObject({ status: 'RETRY_SCHEDULED' });
  });

  it('incomplete-call retry: a short answered call retries up to incompleteRetryMaxAttempts, apart from retryCount', () => {
    const on = { ...settings, retryCount: 0, incompleteRetryEnabled: true, incompleteRetryMaxAttempts: 2, incompleteRetryDelaysMinutes: [7] };
    expect(nextStep(on, facts('completed', 1, { durationMs: 19_999 }))).toEqual({
      status: 'RETRY_SCHEDULED',
      delayMinutes: 7,
      incompleteRetry: true,
      nextNumber: false,
      reason: 'incomplete_call',
    });
    // Second incomplete retry: past the delay list → incompleteRetryIntervalMinutes.
    expect(nextStep(on, facts('completed', 2, { durationMs: 1_000, incompleteRetries: 1 }))).toMatchObject({ delayMinutes: 15, incompleteRetry: true });
    expect(nextStep(on, facts('completed', 3, { durationMs: 1_000, incompleteRetries: 2 }))).toMatchObject({ status: 'COMPLETED' });
    expect(nextStep(on, facts('completed', 1, { durationMs: 20_000 }))).toMatchObject({ status: 'COMPLETED' });
    // A failed attempt after an incomplete retry still has retryCount (0) regular retries: none.
    expect(nextStep(on, facts('busy', 2, { incompleteRetries: 1 }))).toMatchObject({ status: 'FAILED' });
  });

  describe('alternate numbers (decisions.md 16.19)', () => {
    it('a number left unreached after its retries moves on to the next number, after the cooldown, as a fresh number', () => {
      for (const outcome of ['no_answer', 'busy', 'carrier_failure']) {
        expect(nextStep(settings, facts(outcome, 3, { numbersLeft: 1 }))).toEqual({
          status: 'RETRY_SCHEDULED',
          delayMinutes: 5,
          incompleteRetry: false,
          nextNumber: true,
          reason: 'next_number',
        });
      }
      // Retries on the current number come first.
      expect(nextStep(settings, facts('busy', 2, { numbersLeft: 1 }))).toMatchObject({ status: 'RETRY_SCHEDULED', nextNumber: false, delayMinutes: 30 });
    });

    it('no next number, a voicemail, or a person reached: no move', () => {
      expect(nextStep(settings, facts('no_answer', 3, { numbersLeft: 0 }))).toMatchObject({ status: 'FAILED', reason: 'retries_exhausted' });
      expect(nextStep(settings, facts('voicemail', 3, { numbersLeft: 2 }))).toMatchObject({ status: 'FAILED', reason: 'retries_exhausted' });
      expect(nextStep({ ...settings, skipRetryOnFirstVoicemail: true }, facts('voicemail', 1, { numbersLeft: 2 }))).toMatchObject({ status: 'FAILED' });
      expect(nextStep(settings, facts('completed', 1, { durationMs: 60_000, numbersLeft: 2 }))).toMatchObject({ status: 'COMPLETED' });
    });
  });
  describe('follow-up calls for interested leads (decisions.md 35.3)', () => {
    const on = { ...settings, followupEnabled: true, followupMaxAttempts: 2 };
    it('an interested lead is called again after cooldownMinutes, up to followupMaxAttempts', () => {
      expect(nextStep(on, facts('completed', 1, { durationMs: 60_000, interested: true }))).toEqual({
        status: 'RETRY_SCHEDULED',
        delayMinutes: 5,
        incompleteRetry: false,
        nextNumber: false,
        reason: 'followup',
        sequence: 'followup',
      });
      expect(nextStep(on, facts('completed', 2, { durationMs: 60_000, interested: true, followups: 1 }))).toMatchObject({ sequence: 'followup' });
      expect(nextStep(on, facts('completed', 3, { durationMs: 60_000, interested: true, followups: 2 }))).toMatchObject({ status: 'COMPLETED' });
    });
    it('off, not interested or unknown: COMPLETED', () => {
      expect(nextStep(settings, facts('completed', 1, { durationMs: 60_000, interested: true }))).toMatchObject({ status: 'COMPLETED' });
      expect(nextStep(on, facts('completed', 1, { durationMs: 60_000, interested: false }))).toMatchObject({ status: 'COMPLETED' });
      expect(nextStep(on, facts('completed', 1, { durationMs: 60_000, interested: null }))).toMatchObject({ status: 'COMPLETED' });
    });
    it('an unanswered follow-up uses the retries left, not counting the follow-up itself', () => {
      // attempts 2 = first call + follow-up: one regular attempt so far, so retry #1 (10 min).
      expect(nextStep(on, facts('no_answer', 2, { followups: 1 }))).toMatchObject({ status: 'RETRY_SCHEDULED', delayMinutes: 10, reason: 'no_answer' });
    });
  });

  describe('churn re-contact of lost contacts (decisions.md 35.4)', () => {
    const on = { ...settings, churnEnabled: true, churnMaxAttempts: 2, churnIntervalHours: 48, churnDelaysHours: [24] };
    it('retries spent: re-contacted after churnDelaysHours[n], then churnIntervalHours, up to churnMaxAttempts', () => {
      expect(nextStep(on, facts('no_answer', 3))).toEqual({
        status: 'RETRY_SCHEDULED',
        delayMinutes: 24 * 60,
        incompleteRetry: false,
        nextNumber: false,
        reason: 'churn',
        sequence: 'churn',
      });
      expect(nextStep(on, facts('busy', 4, { churnRounds: 1 }))).toMatchObject({ delayMinutes: 48 * 60, sequence: 'churn' });
      expect(nextStep(on, facts('busy', 5, { churnRounds: 2 }))).toMatchObject({ status: 'FAILED', reason: 'retries_exhausted' });
    });
    it('off: FAILED; regular retries and alternates come first', () => {
      expect(nextStep(settings, facts('no_answer', 3))).toMatchObject({ status: 'FAILED' });
      expect(nextStep(on, facts('no_answer', 2))).toMatchObject({ reason: 'no_answer' });
      expect(nextStep(on, facts('no_answer', 3, { numbersLeft: 1 }))).toMatchObject({ reason: 'next_number' });
    });
  });
});
