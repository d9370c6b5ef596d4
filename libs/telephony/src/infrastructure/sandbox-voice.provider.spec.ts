import { FixedClock, SystemClock } from '@outreach/core';
import { InMemorySandboxCallRecords } from '../testing';
import { sandboxScript, sandboxTimeline, SandboxVoiceProvider } from './sandbox-voice.provider';

const T0 = new Date('2026-11-23T10:00:00Z');
const number = (digit: number) => `+1415555012${digit}`;

describe('sandbox voice provider', () => {
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

  it('places a call with timestamps from the clock, never ahead of it; durationMs is the script\'s talk time', async () => {
    const provider = new SandboxVoiceProvider(new FixedClock(T0), { sandboxVoiceLatencyMs: 0 } as never, new InMemorySandboxCallRecords());
    const request = { callId: 'c1', from: '+14155550100', agentId: null, maxDurationSecs: 600, variables: {} };
    const answered = await provider.placeCall({ ...request, to: number(7) });
    const script = sandboxScript(number(7), 600);
    expect(answered).toEqual({
      outcome: 'completed',
      providerDisposition: 'completed',
      providerCallId: 'sbx_call_c1',
      answeredAt: T0, // latency 0: the whole script fits in the instant the call took
      endedAt: T0,
      durationMs: script.durationMs,
      transcript: script.transcript,
      recordingUrl: 'https://sandbox.invalid/recordings/c1.mp3',
    });
    const busy = await provider.placeCall({ ...request, callId: 'c2', to: number(1) });
    expect(busy).toMatchObject({ outcome: 'busy', answeredAt: null, durationMs: 0, recordingUrl: null });
  });

  it('compresses ring and talk time into the latency the call really took, in the script\'s proportions', () => {
    const script = { ringMs: 10_000, durationMs: 30_000 };
    expect(sandboxTimeline(T0, 400, script)).toEqual({ answeredAt: new Date(T0.getTime() + 100), endedAt: new Date(T0.getTime() + 400) });
    expect(sandboxTimeline(T0, 400, { ringMs: 0, durationMs: 0 })).toEqual({ answeredAt: new Date(T0.getTime() + 400), endedAt: new Date(T0.getTime() + 400) });
  });

  it('with a real latency, the call ends no later than the clock when placeCall answers', async () => {
    const provider = new SandboxVoiceProvider(new SystemClock(), { sandboxVoiceLatencyMs: 60 } as never, new InMemorySandboxCallRecords());
    const placedAt = Date.now();
    const result = await provider.placeCall({ callId: 'c3', from: '+14155550100', to: number(5), agentId: null, maxDurationSecs: 600, variables: {} });
    const answeredAt = Date.now();
    expect(result.answeredAt!.getTime()).toBeGreaterThanOrEqual(placedAt);
    expect(result.answeredAt!.getTime()).toBeLessThan(result.endedAt.getTime());
    expect(result.endedAt.getTime()).toBeLessThanOrEqual(answeredAt);
    expect(result.durationMs).toBe(sandboxScript(number(5), 600).durationMs);
  });

  describe('the provider\'s record of its calls (decisions.md 16.18)', () => {
    const request = { callId: 'c9', from: '+14155550100', to: number(7), agentId: null, maxDurationSecs: 600, variables: {} };
    const sandbox = (store: InMemorySandboxCallRecords, latencyMs = 0) =>
      new SandboxVoiceProvider(new FixedClock(T0), { sandboxVoiceLatencyMs: latencyMs } as never, store);

    it('placing a call id twice dials once and answers the same ending', async () => {
      const store = new InMemorySandboxCallRecords();
      const provider = sandbox(store);
      const first = await provider.placeCall(request);
      const again = await sandbox(store).placeCall({ ...request, to: number(1) }); // another process, same call id
      expect(again).toEqual(first);
      expect(again.outcome).toBe('completed');
      expect([...store.records.keys()]).toEqual(['c9']);
    });

    it('lookupCall: unknown before it is placed, in progress during its latency, then ended — from any process', async () => {
      const store = new InMemorySandboxCallRecords();
      const placing = sandbox(store, 300);
      expect(await placing.lookupCall('c9')).toEqual({ state: 'unknown' });
      const placed = placing.placeCall(request);
      await new Promise((r) => setTimeout(r, 20));
      const elsewhere = sandbox(store, 300); // a restarted worker asks the provider
      expect(await elsewhere.lookupCall('c9')).toEqual({ state: 'in_progress' });
      const result = await placed;
      expect(await elsewhere.lookupCall('c9')).toEqual({ state: 'ended', result });
    });

    it('a store that cannot be written keeps the call in memory: the call still happens and this process can answer for it', async () => {
      const store = new InMemorySandboxCallRecords();
      store.failing = true;
      const provider = sandbox(store);
      const result = await provider.placeCall(request);
      expect(result.outcome).toBe('completed');
      expect(await provider.lookupCall('c9')).toEqual({ state: 'ended', result });
      await expect(sandbox(store).lookupCall('c9')).rejects.toThrow('unreachable'); // elsewhere: cannot tell, so it says nothing
    });
  });
});
