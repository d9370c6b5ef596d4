/**
 * When a result-webhook delivery is tried again: exponential back-off with ±20 % jitter over
 * about three days (the sum of the delays is 2 days 19 h 43 min before jitter), then it fails
 * for good. A receiver's Retry-After can push the next try later (up to a day), never earlier.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  12 * HOUR,
  16 * HOUR,
  24 * HOUR,
];

/** The first try plus one per delay. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const MAX_RETRY_AFTER_MS = 24 * HOUR;
export const JITTER = 0.2;

/**
 * The wait before the next try after `attemptsMade` failed tries, or null when none is left.
 * `random` returns [0, 1) (Math.random in production, fixed in tests).
 */
export function nextRetryDelayMs(attemptsMade: number, retryAfterMs: number | null, random: () => number = Math.random): number | null {
  if (attemptsMade < 1 || attemptsMade >= MAX_DELIVERY_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** Retry-After as delay-seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * SECOND;
  const at = Date.parse(text);
  if (Number.isNaN(at) || !/[a-z]/i.test(text)) return null;
  return Math.max(0, at - now.getTime());
}

export type ResponseVerdict = 'delivered' | 'gone' | 'retry';

/** 2xx delivered; 410 Gone disables the endpoint; anything else (or no answer) is tried again. */
export function judgeResponse(statusCode: number | null): ResponseVerdict {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return 'delivered';
  if (statusCode === 410) return 'gone';
  return 'retry';
}
