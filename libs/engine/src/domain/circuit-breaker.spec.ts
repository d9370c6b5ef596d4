import { circuitOpen } from './circuit-breaker';

const settings = { circuitBreakerWindow: 10, circuitBreakerFailurePercent: 50 };
const calls = (failures: number, others: number) => [...Array(failures).fill('carrier_failure'), ...Array(others).fill('completed')];

describe('circuit breaker', () => {
  it('stays closed until the window is full', () => {
    expect(circuitOpen(calls(9, 0), settings)).toBe(false);
    expect(circuitOpen(calls(10, 0), settings)).toBe(true);
  });

  it('opens above the percentage, not at it', () => {
    expect(circuitOpen(calls(5, 5), settings)).toBe(false);
    expect(circuitOpen(calls(6, 4), settings)).toBe(true);
  });

  it('judges the latest window only', () => {
    expect(circuitOpen([...calls(0, 10), ...calls(10, 0)], settings)).toBe(false);
  });

  it('only carrier failures count; 100 % never trips', () => {
    expect(circuitOpen(['busy', 'no_answer', 'voicemail', 'busy', 'busy', 'no_answer', 'busy', 'busy', 'busy', 'busy'], settings)).toBe(false);
    expect(circuitOpen(calls(10, 0), { ...settings, circuitBreakerFailurePercent: 100 })).toBe(false);
  });
});
