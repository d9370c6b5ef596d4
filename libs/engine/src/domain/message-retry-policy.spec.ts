import { MessageFacts, MessageRetrySettings, nextMessageStep } from './message-retry-policy';

const T0 = new Date('2026-11-23T10:00:00Z');
/** The campaign defaults (libs/campaigns/src/domain/campaign-settings.ts). */
const base: MessageRetrySettings = {
  messageRetryEnabled: false,
  messageRetryTieredEnabled: false,
  messageRetryMaxAttempts: 3,
  messageRetryIntervalSeconds: 3600,
  messageRetryDelaysSeconds: [],
  messageRetryWindowSeconds: 86400,
  messageRetryTransientMaxAttempts: 5,
};
const facts = (over: Partial<MessageFacts>): MessageFacts => ({ failure: 'undelivered', sends: 1, transient: 0, legAt: T0, now: T0, ...over });

describe('nextMessageStep (decisions.md 33)', () => {
  it('undelivered: no retry unless messageRetryEnabled', () => {
    expect(nextMessageStep(base, facts({}))).toEqual({ retry: false, reason: 'undelivered' });
    expect(nextMessageStep({ ...base, messageRetryEnabled: true }, facts({}))).toEqual({ retry: true, delaySeconds: 3600, reason: 'undelivered' });
  });

  it('undelivered: at most messageRetryMaxAttempts re-sends, each after messageRetryIntervalSeconds', () => {
    const s = { ...base, messageRetryEnabled: true, messageRetryMaxAttempts: 2, messageRetryIntervalSeconds: 600 };
    expect(nextMessageStep(s, facts({ sends: 1 }))).toMatchObject({ retry: true, delaySeconds: 600 });
    expect(nextMessageStep(s, facts({ sends: 2 }))).toMatchObject({ retry: true, delaySeconds: 600 });
    expect(nextMessageStep(s, facts({ sends: 3 }))).toEqual({ retry: false, reason: 'undelivered' });
  });

  it('tiered: messageRetryDelaysSeconds[n], the interval past its end; ignored when tiering is off', () => {
    const s = { ...base, messageRetryEnabled: true, messageRetryMaxAttempts: 3, messageRetryIntervalSeconds: 900, messageRetryDelaysSeconds: [60, 300] };
    expect(nextMessageStep(s, facts({ sends: 1 }))).toMatchObject({ delaySeconds: 900 });
    const tiered = { ...s, messageRetryTieredEnabled: true };
    expect([1, 2, 3].map((sends) => nextMessageStep(tiered, facts({ sends })))).toEqual([
      { retry: true, delaySeconds: 60, reason: 'undelivered' },
      { retry: true, delaySeconds: 300, reason: 'undelivered' },
      { retry: true, delaySeconds: 900, reason: 'undelivered' },
    ]);
  });

  it('transient: retried without messageRetryEnabled, 30 s doubling up to the interval, at most messageRetryTransientMaxAttempts', () => {
    const s = { ...base, messageRetryTransientMaxAttempts: 4, messageRetryIntervalSeconds: 100 };
    const delays = [1, 2, 3, 4].map((transient) => nextMessageStep(s, facts({ failure: 'transient', transient })));
    expect(delays).toEqual([30, 60, 100, 100].map((delaySeconds) => ({ retry: true, delaySeconds, reason: 'transient' })));
    expect(nextMessageStep(s, facts({ failure: 'transient', transient: 5 }))).toEqual({ retry: false, reason: 'provider_unavailable' });
  });

  it('transient and undelivered are counted apart: transient refusals do not use up re-sends', () => {
    const s = { ...base, messageRetryEnabled: true, messageRetryMaxAttempts: 1 };
    expect(nextMessageStep(s, facts({ failure: 'transient', transient: 3, sends: 1 }))).toMatchObject({ retry: true });
    expect(nextMessageStep(s, facts({ failure: 'undelivered', transient: 3, sends: 1 }))).toMatchObject({ retry: true });
  });

  it('no retry that would fall after the leg first sent + messageRetryWindowSeconds', () => {
    const s = { ...base, messageRetryEnabled: true, messageRetryIntervalSeconds: 600, messageRetryWindowSeconds: 1000 };
    expect(nextMessageStep(s, facts({ now: new Date(T0.getTime() + 400_000) }))).toMatchObject({ retry: true });
    expect(nextMessageStep(s, facts({ now: new Date(T0.getTime() + 400_001) }))).toEqual({ retry: false, reason: 'retry_window_passed' });
  });
});
