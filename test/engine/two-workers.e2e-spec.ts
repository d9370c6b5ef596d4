// Two worker processes (two Nest contexts with the whole WorkerModule: relays, dispatchers,
// attempt processors) on one campaign, with dispatch runs hammered from both at once: every
// number is dialled exactly as often as its outcomes require, never twice at the same time, and
// the workspace's lines are never exceeded.
process.env.DISPATCH_TICK_MS = '100';
process.env.REAPER_INTERVAL_MS = '3600000';

import { Clock, FixedClock } from '@outreach/platform';
import { PlacedCall, VoiceCallEvents, VoiceCallRequest, VoiceCallStatus, VoiceProvider } from '@outreach/telephony';
import { Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import {
  CountingVoiceProvider,
  dispatcher,
  EngineProbe,
  runnableCampaign,
  sandboxFor,
  sandboxNumber,
  startCampaign,
  startWorker,
  waitFor,
} from './engine-harness';

/** Counts the calls one worker placed, then hands them to the shared counter. */
class WorkerTally extends VoiceProvider {
  readonly name = 'sandbox';
  placed = 0;
  constructor(private readonly shared: CountingVoiceProvider) {
    super();
  }

  /** The worker started with this tally also receives the shared provider's events. */
  attach(events: VoiceCallEvents): void {
    this.shared.attach(events);
  }

  placeCall(request: VoiceCallRequest): Promise<PlacedCall> {
    this.placed++;
    return this.shared.placeCall(request);
  }

  lookupCall(callId: string): Promise<VoiceCallStatus> {
    return this.shared.lookupCall(callId);
  }
}

const T0 = new Date('2026-11-23T10:00:00Z');
const CONTACTS = 60;
const LINES = 12;

describe('two workers on one campaign', () => {
  const clock = new FixedClock(T0);
  // 30 ms per call: plenty of calls in flight at once, on both workers.
  const voice = new CountingVoiceProvider(sandboxFor(clock, 30));
  const tallies = [new WorkerTally(voice), new WorkerTally(voice)];
  let t: TestApp;
  let workers: WorkerApp[] = [];
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    workers = [await startWorker({ clock, voice: tallies[0] }), await startWorker({ clock, voice: tallies[1] })];
    await t.reset();
    ws = await t.seed({ concurrency: LINES });
  });
  afterAll(async () => {
    for (const w of workers) await w.close();
    await t?.close();
  });

  it('never double-dials: dials per number = attempts its outcomes require; never more calls in flight than lines', async () => {
    const phones = Array.from({ length: CONTACTS }, (_, i) => sandboxNumber(i, i % 10));
    const { campaignId } = await runnableCampaign(t, ws, {
      phones,
      settings: { retryCount: 1, retryDelaysMinutes: [10], cooldownMinutes: 5 },
    });
    const probe = new EngineProbe(t);
    const kicks = workers.map(dispatcher);
    /** Dispatch runs from both workers at once, many times, while their own processors run too. */
    const hammer = async () => {
      for (let round = 0; round < 5; round++) {
        await Promise.all(Array.from({ length: 8 }, (_, i) => kicks[i % 2](campaignId)));
      }
    };

    await startCampaign(t, ws, campaignId, { reservedConcurrency: LINES });
    await hammer();
    const firstRound = await waitFor(
      'first attempts',
      () => probe.statusCounts(campaignId),
      (c) => c.COMPLETED === 36 && c.RETRY_SCHEDULED === 24,
      20_000,
    );
    expect(firstRound).toEqual({ COMPLETED: 36, RETRY_SCHEDULED: 24 });

    clock.advance(10 * 60_000);
    await hammer();
    await waitFor('the campaign to complete', () => probe.campaignStatus(campaignId), (s) => s === 'COMPLETED', 20_000);
    expect(await probe.statusCounts(campaignId)).toEqual({ COMPLETED: 36, FAILED: 24 });

    // Digits 0-3 (no answer, busy, voicemail, carrier failure): 2 attempts each; 4-9: one.
    const calls = await probe.calls(campaignId);
    for (const [i, phone] of phones.entries()) {
      const expected = i % 10 <= 3 ? 2 : 1;
      expect({ phone, dials: voice.placed.get(phone), calls: calls.filter((c) => c.to_number === phone).length }).toEqual({
        phone,
        dials: expected,
        calls: expected,
      });
    }
    expect(voice.total()).toBe(24 * 2 + 36);
    expect(voice.maxConcurrentPerNumber).toBe(1);
    expect(voice.maxInFlight).toBeLessThanOrEqual(LINES);
    // Both workers did part of the work.
    expect(tallies[0].placed).toBeGreaterThan(0);
    expect(tallies[1].placed).toBeGreaterThan(0);
    expect(tallies[0].placed + tallies[1].placed).toBe(voice.total());
  }, 90_000);
});
