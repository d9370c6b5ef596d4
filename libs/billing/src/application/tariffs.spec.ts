import { FixedClock } from '../../../platform/src/testing';
import { testAppConfig } from '../../../workspaces/src/testing';
import { InMemoryTariffRepository } from '../testing';
import { Tariffs } from './tariffs';

/* Tariffs: per-workspace overrides over the configured defaults, per started minute. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const T0 = new Date('2026-03-01T09:00:00Z');

describe('Tariffs', () => {
  let repo: InMemoryTariffRepository;
  let tariffs: Tariffs;

  beforeEach(() => {
    repo = new InMemoryTariffRepository();
    tariffs = new Tariffs(repo, testAppConfig({ tariffVoiceMinuteMinor: 12, tariffMessageMinor: 3 }), new FixedClock(T0));
  });

  it('the configured defaults without an override', async () => {
    await expect(tariffs.rates(W1)).resolves.toEqual({ voiceMinuteMinor: 12, messageMinor: 3 });
    await expect(tariffs.messageCostMinor(W1)).resolves.toBe(3);
  });

  it('prices a call per started minute: 0 ms is free, 60 s one minute, 61 s two', async () => {
    await expect(tariffs.voiceCostMinor(W1, 0)).resolves.toBe(0);
    await expect(tariffs.voiceCostMinor(W1, 1)).resolves.toBe(12);
    await expect(tariffs.voiceCostMinor(W1, 60_000)).resolves.toBe(12);
    await expect(tariffs.voiceCostMinor(W1, 61_000)).resolves.toBe(24);
  });

  it('invalid_request for a negative duration', async () => {
    await expect(tariffs.voiceCostMinor(W1, -1)).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(tariffs.voiceCostsMinor(W1, [1, -1])).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('voiceCostsMinor prices several calls of a workspace with its rates read once', async () => {
    await tariffs.setOverride(W2, { voiceMinuteMinor: 5, messageMinor: null });
    const find = jest.spyOn(repo, 'find');
    await expect(tariffs.voiceCostsMinor(W2, [0, 1, 60_000, 61_000])).resolves.toEqual([0, 5, 5, 10]);
    await expect(tariffs.voiceCostsMinor(W1, [61_000])).resolves.toEqual([24]);
    await expect(tariffs.voiceCostsMinor(W1, [])).resolves.toEqual([]);
    expect(find).toHaveBeenCalledTimes(2);
  });

  it("stores an override for one workspace and prices with it; null keeps that price's default", async () => {
    await expect(tariffs.setOverride(W1, { voiceMinuteMinor: 7, messageMinor: null })).resolves.toEqual({ voiceMinuteMinor: 7, messageMinor: 3 });
    expect(repo.rows.get(W1)).toEqual({ voiceMinuteMinor: 7, messageMinor: null, savedAt: T0 });
    await expect(tariffs.voiceCostMinor(W1, 90_000)).resolves.toBe(14);
    await expect(tariffs.rates(W2)).resolves.toEqual({ voiceMinuteMinor: 12, messageMinor: 3 });
  });

  it('a free price (0) is an override, not the default', async () => {
    await tariffs.setOverride(W1, { voiceMinuteMinor: 0, messageMinor: 0 });
    await expect(tariffs.voiceCostMinor(W1, 600_000)).resolves.toBe(0);
    await expect(tariffs.messageCostMinor(W1)).resolves.toBe(0);
  });

  it.each([
    { voiceMinuteMinor: -1, messageMinor: null },
    { voiceMinuteMinor: 1.5, messageMinor: null },
    { voiceMinuteMinor: null, messageMinor: 1_000_000_001 },
  ])('invalid_request for %p, nothing stored', async (input) => {
    await expect(tariffs.setOverride(W1, input)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(repo.rows.size).toBe(0);
  });
});
