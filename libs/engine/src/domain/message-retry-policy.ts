/** The campaign settings that decide what follows a message that did not get through (decisions.md 33). */
export interface MessageRetrySettings {
  messageRetryEnabled: boolean;
  messageRetryTieredEnabled: boolean;
  messageRetryMaxAttempts: number;
  messageRetryIntervalSeconds: number;
  messageRetryDelaysSeconds: readonly number[];
  messageRetryWindowSeconds: number;
  messageRetryTransientMaxAttempts: number;
}

export interface MessageFacts {
  /**
   * - `undelivered`: the provider took the message and reported it undeliverable, or refused it for good;
   * - `transient`: the provider refused it for now (rate limit, outage: the sandbox's digit 1).
   */
  failure: 'undelivered' | 'transient';
  /** Messages sent on this leg, including the one that just failed (undelivered retries are re-sends). */
  sends: number;
  /** Transient refusals of the current send, including this one. */
  transient: number;
  /** When the leg first went to the provider (the retry window counts from it). */
  legAt: Date;
  now: Date;
}

export type MessageStep = { retry: true; delaySeconds: number; reason: string } | { retry: false; reason: string };

/** The first transient retry waits this long; each next one twice as long, at most messageRetryIntervalSeconds. */
export const TRANSIENT_FIRST_DELAY_SECONDS = 30;

/**
 * What follows a message that did not get through (decisions.md 33). The two kinds are counted
 * and retried separately:
 * - a transient refusal is the provider's problem, not the recipient's: the SAME message is tried
 *   again (whether or not messageRetryEnabled) up to messageRetryTransientMaxAttempts times, after
 *   30 s, 60 s, 120 s… capped at messageRetryIntervalSeconds;
 * - an undelivered message is sent again (a new message) only with messageRetryEnabled, at most
 *   messageRetryMaxAttempts times, after messageRetryIntervalSeconds — or, with
 *   messageRetryTieredEnabled, after messageRetryDelaysSeconds[n] (the interval when the list is
 *   shorter);
 * - neither is retried when the retry would fall after the leg's first send + messageRetryWindowSeconds.
 */
export function nextMessageStep(settings: MessageRetrySettings, facts: MessageFacts): MessageStep {
  let delaySeconds: number;
  if (facts.failure === 'transient') {
    if (facts.transient > settings.messageRetryTransientMaxAttempts) return { retry: false, reason: 'provider_unavailable' };
    delaySeconds = Math.min(TRANSIENT_FIRST_DELAY_SECONDS * 2 ** (facts.transient - 1), settings.messageRetryIntervalSeconds);
  } else {
    const retriesSoFar = facts.sends - 1;
    if (!settings.messageRetryEnabled || retriesSoFar >= settings.messageRetryMaxAttempts) return { retry: false, reason: 'undelivered' };
    delaySeconds = settings.messageRetryTieredEnabled
      ? (settings.messageRetryDelaysSeconds[retriesSoFar] ?? settings.messageRetryIntervalSeconds)
      : settings.messageRetryIntervalSeconds;
  }
  const windowEnds = facts.legAt.getTime() + settings.messageRetryWindowSeconds * 1000;
  if (facts.now.getTime() + delaySeconds * 1000 > windowEnds) return { retry: false, reason: 'retry_window_passed' };
  return { retry: true, delaySeconds, reason: facts.failure };
}
