import { AppError } from '@outreach/core';
import { startedMinutes, voiceCost } from './tariff';

describe('voice tariff: per started minute', () => {
  it.each([
    [0, 0],
    [1, 1],
    [59_999, 1],
    [60_000, 1],
    [60_001, 2],
    [119_999, 2],
    [120_000, 2],
    [3_600_000, 60],
  ])('%i ms → %i minutes', (ms, minutes) => {
    expect(startedMinutes(ms)).toBe(minutes);
  });

  it('prices the started minutes', () => {
    expect(voiceCost(0, 10)).toBe(0);
    expect(voiceCost(61_000, 10)).toBe(20);
    expect(voiceCost(30_000, 0)).toBe(0);
  });

  it('refuses negative or non-finite durations', () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => startedMinutes(bad)).toThrow(AppError);
    }
  });
});
