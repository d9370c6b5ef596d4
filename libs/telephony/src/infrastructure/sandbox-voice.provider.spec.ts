import { FixedClock, SystemClock } from '@outreach/core';
import { InMemorySandboxCallRecords } from '../testing';
import { VoiceCallEvent, VoiceCallEvents, VoiceCallResult } from '../application/voice-provider.port';
import { sandboxReferralOf, sandboxScript, sandboxTimeline, SandboxVoiceProvider } from './sandbox-voice.provider';

const T0 = new Date('2026-11-23T10:00:00Z');
const number = (digit: number) => `+1415555012${digit}`;

describe('sandbox voice provider', () => {
  it('a completed call carries an analysis by the second-to-last digit: 6 not interested, 7 interested, 8 interested with a referral (decisions.md 35.5)', () => {
    expect(sandboxScript('+14155550165').providerAnalysis).toEqual({ interested: false });
    expect(sandboxScript('+14155550175').providerAnalysis).toEqual({ interested: true });
    expect(sandboxScript('+14155550185').providerAnalysis).toEqual({ interested: true, referrals: ['+14155550285'] });
    expect(sandboxReferralOf('+14155550985')).toBe('+14155550085');
    // No analysis on other digits, nor on a call a person did not complete.
    expect(sandboxScript('+14155550125').providerAnalysis).toBeUndefined();
    expect(sandboxScript('+14155550174').providerAnalysis).toBeUndefined();
    expect(sandboxScript('+14155550170').providerAnalysis).toBeUndefined();
  });


  it('the last digit picks the outcome', () => {
    expect(Array.from({ length: 10 }, (_, d) => sandboxScript(number(d)).outcome)).toEqual([
      'no_answer',
      'busy',
      'voicemail',
      'carrier_failure',
      'transferred',
      'completed',
      'completed',
      'completed',
      'completed',
      'completed',
    ]);
  });

  it('is deterministic per number; talk time only for answered calls, capped by maxDurationSecs', () => {
    for (let d = 0; d < 10; d++) expect(sandboxScript(number(d))).toEqual(sandboxScript(number(d)));
    for (const d of [0, 1, 3]) expect(sandboxScript(number(d))).toMatchObject({ durationMs: 0, transcript: null });
    for (const d of [2, 4, 5]) expect(sandboxScript(number(d)).durationMs).toBeGreaterThanOrEqual(5_000);
    expect(sandboxScript(number(5), 1).durationMs).toBeLessThanOrEqual(1_000);
    const durations = new Set(Array.from({ length: 50 }, (_, i) => sandboxScript(`+1415555${String(1000 + i * 10 + 5)}`).durationMs));
    expect(durations.size).toBeGreaterThan(40); // derived from the number, not a constant
  });

  /** A VoiceCallEvents that keeps what is delivered, and waits for a call's ended event. */
  function collector(refuse = 0) {
    const events = new VoiceCallEvents();
    const seen: VoiceCallEvent[] = [];
    let refusals = refuse;
    events.subscribe(async (event) => {
      if (refusals > 0) {
        refusals--;
        throw new Error('database unreachable');
      }
      seen.push(event);
    });
    const ended = async (callId: string): Promise<VoiceCallResult> => {
      for (let i = 0; i < 400; i++) {
        const event = seen.find((e) => e.callId === callId && e.type === 'ended');
        if (event && event.type === 'ended') return event.result;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no ended event for ${callId}`);
    };
    return { events, seen, ended };
  }

  it('accepts a call at once, then sends its events: ringing, answered, ended with timestamps from the clock; durationMs is the script\'s talk time', async () => {
    const { events, seen, ended } = collector();
    const provider = new SandboxVoiceProvider(new FixedClock(T0), { sandboxVoiceLatencyMs: 0 } as never, new InMemorySandboxCallRecords(), events);
    const request = { callId: 'c1', workspaceId: 'w1', from: '+14155550100', agentId: null, maxDurationSecs: 600, variables: {} };
    expect(await provider.placeCall({ ...request, to: number(7) })).toEqual({ providerCallId: 'sbx_call_c1' });
    const script = sandboxScript(number(7), 600);
    expect(await ended('c1')).toEqual({
      outcome: 'completed',
      providerDisposition: 'completed',
      providerCallId: 'sbx_call_c1',
      answeredAt: T0, // latency 0: the whole script fits in the instant the call took
      endedAt: T0,
      durationMs: script.durationMs,
      transcript: script.transcript,
      recordingUrl: 'https://sandbox.invalid/recordings/c1.mp3',
    });
    expect(seen.map((e) => [e.type, e.eventId, e.provider])).toEqual([
      ['ringing', 'c1:ringing', 'sandbox'],
      ['answered', 'c1:answered', 'sandbox'],
      ['ended', 'c1:ended', 'sandbox'],
    ]);
    await provider.placeCall({ ...request, callId: 'c2', to: number(1) });
    expect(await ended('c2')).toMatchObject({ outcome: 'busy', answeredAt: null, durationMs: 0, recordingUrl: null });
    expect(seen.filter((e) => e.callId === 'c2').map((e) => e.type)).toEqual(['ringing', 'ended']); // never answered
    provider.onApplicationShutdown();
  });

  it('compresses ring and talk time into the latency the call really took, in the script\'s proportions', () => {
    const script = { ringMs: 10_000, durationMs: 30_000 };
    expect(sandboxTimeline(T0, 400, script)).toEqual({ answeredAt: new Date(T0.getTime() + 100), endedAt: new Date(T0.getTime() + 400) });
    expect(sandboxTimeline(T0, 400, { ringMs: 0, durationMs: 0 })).toEqual({ answeredAt: new Date(T0.getTime() + 400), endedAt: new Date(T0.getTime() + 400) });
  });

  it('with a real latency, the ended event comes after it and the call ends no later than the clock when it arrives', async () => {
    const { events, ended } = collector();
    const provider = new SandboxVoiceProvider(new SystemClock(), { sandboxVoiceLatencyMs: 60 } as never, new InMemorySandboxCallRecords(), events);
    const placedAt = Date.now();
    await provider.placeCall({ callId: 'c3', workspaceId: 'w1', from: '+14155550100', to: number(5), agentId: null, maxDurationSecs: 600, variables: {} });
    const result = await ended('c3');
    const arrivedAt = Date.now();
    expect(arrivedAt - placedAt).toBeGreaterThanOrEqual(55);
    expect(result.answeredAt!.getTime()).toBeGreaterThanOrEqual(placedAt);
    expect(result.answeredAt!.getTime()).toBeLessThan(result.endedAt.getTime());
    expect(result.endedAt.getTime()).toBeLessThanOrEqual(arrivedAt);
    expect(result.durationMs).toBe(sandboxScript(number(5), 600).durationMs);
  });

  it('an event the service refused is delivered again, as a provider redelivers a failed webhook', async () => {
    const { events, seen, ended } = collector(2); // the first two deliveries fail
    const provider = new SandboxVoiceProvider(new FixedClock(T0), { sandboxVoiceLatencyMs: 0 } as never, new InMemorySandboxCallRecords(), events);
    await provider.placeCall({ callId: 'c4', workspaceId: 'w1', from: '+14155550100', to: number(7), agentId: null, maxDurationSecs: 600, variables: {} });
    expect((await ended('c4')).outcome).toBe('completed');
    for (let i = 0; i < 100 && seen.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    // Redelivered later, so after the ended event: out of order, which the Call's state machine absorbs.
    expect(seen.map((e) => e.type)).toEqual(['ended', 'ringing', 'answered']);
    provider.onApplicationShutdown();
  });

  describe('the provider\'s record of its calls (decisions.md 16.18)', () => {
    const request = { callId: 'c9', workspaceId: 'w1', from: '+14155550100', to: number(7), agentId: null, maxDurationSecs: 600, variables: {} };
    const sandbox = (store: InMemorySandboxCallRecords, latencyMs = 0, events = collector().events) =>
      new SandboxVoiceProvider(new FixedClock(T0), { sandboxVoiceLatencyMs: latencyMs } as never, store, events);

    it('placing a call id twice dials once and answers the same provider call id', async () => {
      const store = new InMemorySandboxCallRecords();
      const first = await sandbox(store).placeCall(request);
      const again = await sandbox(store).placeCall({ ...request, to: number(1) }); // another process, same call id
      expect(again).toEqual(first);
      expect([...store.records.keys()]).toEqual(['c9']);
      expect(store.records.get('c9')!.to).toBe(number(7));
    });

    it('lookupCall: unknown before it is placed, in progress during its latency, then ended — from any process', async () => {
      const store = new InMemorySandboxCallRecords();
      const { events, ended } = collector();
      const placing = sandbox(store, 300, events);
      expect(await placing.lookupCall('c9')).toEqual({ state: 'unknown' });
      await placing.placeCall(request);
      const elsewhere = sandbox(store, 300); // a restarted worker asks the provider
      expect(await elsewhere.lookupCall('c9')).toEqual({ state: 'in_progress' });
      const result = await ended('c9');
      expect(await elsewhere.lookupCall('c9')).toEqual({ state: 'ended', result });
    });

    it('a store that cannot be written keeps the call in memory: the call still happens and this process can answer for it', async () => {
      const store = new InMemorySandboxCallRecords();
      store.failing = true;
      const { events, ended } = collector();
      const provider = sandbox(store, 0, events);
      await provider.placeCall(request);
      const result = await ended('c9');
      expect(result.outcome).toBe('completed');
      expect(await provider.lookupCall('c9')).toEqual({ state: 'ended', result });
      await expect(sandbox(store).lookupCall('c9')).rejects.toThrow('unreachable'); // elsewhere: cannot tell, so it says nothing
    });
  });
});
