import { VoiceCallEvent, VoiceCallEvents } from '@outreach/telephony';
import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { InMemoryCallRepository } from '../testing';
import { CallEventIntake } from './call-event-intake';
import { CallLog } from './call-log';
import { PlaceTestCall } from './place-test-call';

/* CallEventIntake: provider progress events applied in groups (decisions.md 16.43), each as a lone event would be. */

const T0 = new Date('2026-03-01T09:00:00Z');
const ANSWERED_AT = new Date('2026-03-01T09:00:07Z');

describe('CallEventIntake', () => {
  let calls: InMemoryCallRepository;
  let log: CallLog;
  let intake: CallEventIntake;

  beforeEach(() => {
    calls = new InMemoryCallRepository();
    log = new CallLog(calls, new RollbackUnitOfWork(), new FixedClock(T0));
    intake = new CallEventIntake(new VoiceCallEvents(), log, {} as PlaceTestCall);
  });

  async function dialling(to: string): Promise<string> {
    const { callId } = await log.start({ workspaceId: 'w1', campaignId: 'c1', contactId: null, agentId: null, fromNumber: '+14155550100', toNumber: to, attemptNumber: 1, kind: 'campaign' });
    await log.progress(callId, 'accepted', { providerCallId: `p-${callId}` });
    return callId;
  }

  const event = (callId: string, type: 'ringing' | 'answered', eventId = `${callId}:${type}`): VoiceCallEvent => ({
    provider: 'sandbox',
    eventId,
    callId,
    providerCallId: `p-${callId}`,
    type,
    at: ANSWERED_AT,
  });

  it('events arriving together are applied together: one read of the ids and calls, one move per step, one note; each caller gets its own report', async () => {
    const [a, b, c, d] = await Promise.all(['+14155550101', '+14155550102', '+14155550103', '+14155550104'].map(dialling));
    await log.noteEvent({ provider: 'sandbox', eventId: 'seen-before', callId: d, type: 'ringing' });
    const progressMany = jest.spyOn(log, 'progressMany');
    const progress = jest.spyOn(log, 'progress');
    const noteEvents = jest.spyOn(log, 'noteEvents');

    const reports = await Promise.all([
      intake.receive(event(a, 'ringing')), // alone: nothing was in flight
      intake.receive(event(b, 'ringing')), // alone: one group in flight
      intake.receive(event(c, 'answered')), // these arrive while two are applied: one group
      intake.receive(event(b, 'answered')),
      intake.receive(event(d, 'ringing', 'seen-before')),
      intake.receive(event('0c0c0c0c-0000-4000-8000-0000000000ff', 'ringing')),
      intake.receive(event(a, 'ringing')), // a's event again, after the first: a duplicate
    ]);

    expect(reports).toEqual(['applied', 'applied', 'applied', 'applied', 'duplicate', 'unknown_call', 'duplicate']);
    expect(progress).toHaveBeenCalledTimes(2); // the two lone events
    expect(progressMany.mock.calls.map(([steps, step]) => [step, steps.map((s) => s.callId)])).toEqual([['answered', [c, b]]]);
    expect(noteEvents).toHaveBeenCalledTimes(1);
    expect(calls.rows.get(a)).toMatchObject({ status: 'RINGING' });
    expect(calls.rows.get(b)).toMatchObject({ status: 'IN_PROGRESS', answeredAt: ANSWERED_AT });
    expect(calls.rows.get(c)).toMatchObject({ status: 'IN_PROGRESS', answeredAt: ANSWERED_AT });
    expect(calls.rows.get(d)).toMatchObject({ status: 'DIALING' });
    for (const id of [`${a}:ringing`, `${b}:ringing`, `${b}:answered`, `${c}:answered`]) expect(await log.eventApplied('sandbox', id)).toBe(true);
  });

  it('a group that cannot be applied together is applied event by event, each as a lone event', async () => {
    const [a, b, c] = await Promise.all(['+14155550101', '+14155550102', '+14155550103'].map(dialling));
    jest.spyOn(log, 'progressMany').mockRejectedValue(new Error('deadlock detected'));
    const reports = await Promise.all([a, b, c].map((id) => intake.receive(event(id, 'ringing'))));
    expect(reports).toEqual(['applied', 'applied', 'applied']);
    for (const id of [a, b, c]) expect(calls.rows.get(id)).toMatchObject({ status: 'RINGING' });
  });

  describe("a test call's ending in a group", () => {
    const ended = (callId: string): VoiceCallEvent => ({
      provider: 'sandbox',
      eventId: `${callId}:ended`,
      callId,
      providerCallId: `p-${callId}`,
      type: 'ended',
      at: ANSWERED_AT,
      result: { outcome: 'completed', providerDisposition: 'completed', providerCallId: `p-${callId}`, answeredAt: ANSWERED_AT, endedAt: ANSWERED_AT, durationMs: 1_000, transcript: null, recordingUrl: null },
    });
    let ends: string[];
    let failEnd: boolean;

    beforeEach(() => {
      ends = [];
      failEnd = false;
      const testCalls = {
        end: async (callId: string) => {
          if (failEnd) throw new Error('connection reset');
          ends.push(callId);
        },
      } as unknown as PlaceTestCall;
      intake = new CallEventIntake(new VoiceCallEvents(), log, testCalls);
    });

    async function testCall(): Promise<string> {
      const { callId } = await log.start({ workspaceId: 'w1', campaignId: null, contactId: null, agentId: null, fromNumber: '+14155550100', toNumber: '+14155550199', attemptNumber: 0, kind: 'test' });
      await log.progress(callId, 'accepted', { providerCallId: `p-${callId}` });
      return callId;
    }

    /** A lone event first, so the next three arrive while it is applied and form one group. */
    async function inOneGroup(events: VoiceCallEvent[]): Promise<Array<PromiseSettledResult<string>>> {
      const lone = await dialling('+14155550109');
      return Promise.allSettled([intake.receive(event(lone, 'ringing')), ...events.map((e) => intake.receive(e))]).then((r) => r.slice(1));
    }

    it('is applied after the group is on record: a group that fails falls back event by event, and the ending is applied once, as applied', async () => {
      const [a, b] = await Promise.all(['+14155550101', '+14155550102'].map(dialling));
      const test = await testCall();
      const progressMany = jest.spyOn(log, 'progressMany').mockRejectedValueOnce(new Error('deadlock detected'));

      const results = await inOneGroup([event(a, 'ringing'), ended(test), event(b, 'ringing')]);

      expect(progressMany).toHaveBeenCalledTimes(1); // the group failed before its test call's ending was applied
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'))).toEqual(['applied', 'applied', 'applied']);
      expect(ends).toEqual([test]);
    });

    it('an ending that fails is its own failure: the group\'s events are applied and answered as applied', async () => {
      const [a, b] = await Promise.all(['+14155550101', '+14155550102'].map(dialling));
      const test = await testCall();
      failEnd = true;

      const results = await inOneGroup([event(a, 'ringing'), ended(test), event(b, 'ringing')]);

      expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['applied', 'connection reset', 'applied']);
      expect(await log.eventApplied('sandbox', `${test}:ended`)).toBe(false); // not noted: the provider's redelivery applies it
      for (const id of [a, b]) expect(calls.rows.get(id)).toMatchObject({ status: 'RINGING' });
    });
  });
});
