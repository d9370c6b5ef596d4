import {
  judgeResponse,
  MAX_DELIVERY_ATTEMPTS,
  MAX_RETRY_AFTER_MS,
  nextRetryDelayMs,
  parseRetryAfter,
  RETRY_DELAYS_MS,
} from './delivery-schedule';

describe('result webhook back-off', () => {
  it('spans about three days before jitter and grows every step', () => {
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total / 3600_000).toBeGreaterThan(60);
    expect(total / 3600_000).toBeLessThan(80);
    for (let i = 1; i < RETRY_DELAYS_MS.length; i++) expect(RETRY_DELAYS_MS[i]).toBeGreaterThan(RETRY_DELAYS_MS[i - 1]);
  });

  it('jitters ±20 % around each step', () => {
    expect(nextRetryDelayMs(1, null, () => 0)).toBe(4000);
    expect(nextRetryDelayMs(1, null, () => 0.5)).toBe(5000);
    expect(nextRetryDelayMs(1, null, () => 0.999999)).toBeLessThanOrEqual(6000);
    expect(nextRetryDelayMs(3, null, () => 0.5)).toBe(RETRY_DELAYS_MS[2]);
  });

  it('stops after the last step', () => {
    expect(nextRetryDelayMs(MAX_DELIVERY_ATTEMPTS - 1, null, () => 0.5)).toBe(RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1]);
    expect(nextRetryDelayMs(MAX_DELIVERY_ATTEMPTS, null)).toBeNull();
    expect(nextRetryDelayMs(0, null)).toBeNull();
  });

  it('Retry-After can only push the next try later, up to a day', () => {
    expect(nextRetryDelayMs(1, 60_000, () => 0.5)).toBe(60_000);
    expect(nextRetryDelayMs(5, 1000, () => 0.5)).toBe(RETRY_DELAYS_MS[4]);
    expect(nextRetryDelayMs(1, 10 * MAX_RETRY_AFTER_MS, () => 0.5)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:05:00 GMT', now)).toBe(300_000);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });

  it('2xx delivered, 410 gone, anything else (or nothing) retried', () => {
    expect(judgeResponse(200)).toBe('delivered');
    expect(judgeResponse(204)).toBe('delivered');
    expect(judgeResponse(410)).toBe('gone');
    for (const s of [301, 400, 404, 429, 500, 503, null]) expect(judgeResponse(s)).toBe('retry');
  });
});
