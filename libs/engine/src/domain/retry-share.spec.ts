import { retryClaimLimit } from './retry-share';

describe('retry share (decisions.md 35.7)', () => {
  it('retries may hold floor(reservation × percent / 100) lines, at least one when the percent is above 0', () => {
    expect(retryClaimLimit({ reservedConcurrency: 10, retryConcurrencyPercent: 20, retriesInFlight: 0 })).toBe(2);
    expect(retryClaimLimit({ reservedConcurrency: 10, retryConcurrencyPercent: 20, retriesInFlight: 1 })).toBe(1);
    expect(retryClaimLimit({ reservedConcurrency: 10, retryConcurrencyPercent: 20, retriesInFlight: 3 })).toBe(0);
    expect(retryClaimLimit({ reservedConcurrency: 4, retryConcurrencyPercent: 25, retriesInFlight: 0 })).toBe(1);
    expect(retryClaimLimit({ reservedConcurrency: 1, retryConcurrencyPercent: 20, retriesInFlight: 0 })).toBe(1);
    expect(retryClaimLimit({ reservedConcurrency: 4, retryConcurrencyPercent: 100, retriesInFlight: 0 })).toBe(4);
  });

  it('0 %: no line is kept for retries while first dials wait', () => {
    expect(retryClaimLimit({ reservedConcurrency: 10, retryConcurrencyPercent: 0, retriesInFlight: 0 })).toBe(0);
  });
});
