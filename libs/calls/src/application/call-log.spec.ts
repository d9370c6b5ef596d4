import type { VoiceCallResult } from '@outreach/telephony';
import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { InMemoryCallRepository } from '../testing';
import { CallLog, StartCallInput } from './call-log';

/* CallLog: calls start IN_PROGRESS and finish exactly once, in the caller's unit of work. */

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const CAMPAIGN = 'b0000000-0000-4000-8000-000000000001';
const UNKNOWN = 'c0000000-0000-4000-8000-0000000000ff';
const T0 = new Date('2026-03-01T09:00:00Z');

const start = (over: Partial<StartCallInput> = {}): StartCallInput => ({
  workspaceId: W1,
  campaignId: CAMPAIGN,
  contactId: null,
  agentId: null,
  fromNumber: '+14155550100',
  toNumber: '+14155550105',
  attemptNumber: 1,
  kind: 'campaign',
  ...over,
});

const ending = (over: Partial<VoiceCallResult> = {}): VoiceCallResult => ({
  outcome: 'completed',
  providerDisposition: 'completed',
  providerCallId: 'prov-1',
  answeredAt: new Date('2026-03-01T09:00:05Z'),
  endedAt: new Date('2026-03-01T09:01:05Z'),
  durationMs: 60_000.4,
  transcript: 'Agent: hello',
  recordingUrl: 'https://recordings.example/1.wav',
  ...over,
});

describe('CallLog', () => {
  let calls: InMemoryCallRepository;
  let uow: RollbackUnitOfWork;
  let log: CallLog;

  beforeEach(() => {
    calls = new InMemoryCallRepository();
    uow = new RollbackUnitOfWork();
    log = new CallLog(calls, uow, new FixedClock(T0));
  });

  describe('start', () => {
    it('stores a call QUEUED (the provider does not have it yet), started now, analysis pending', async () => {
      const { callId } = await log.start(start({ idempotencyKey: 'k-1' }));
      expect(calls.rows.get(callId)).toMatchObject({
        workspaceId: W1,
        campaignId: CAMPAIGN,
        status: 'QUEUED',
        outcome: null,
        startedAt: T0,
        analysisStatus: 'PENDING',
        idempotencyKey: 'k-1',
      });
    });

    it('invalid_request for a number that is not E.164 or a negative attempt number', async () => {
      await expect(log.start(start({ toNumber: '0415555' }))).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(log.start(start({ attemptNumber: -1 }))).rejects.toMatchObject({ code: 'invalid_request' });
      expect(calls.rows.size).toBe(0);
    });

    it('idempotency_key_reused for a key the workspace used; another workspace may use it', async () => {
      await log.start(start({ idempotencyKey: 'k-1' }));
      await expect(log.start(start({ idempotencyKey: 'k-1' }))).rejects.toMatchObject({ code: 'idempotency_key_reused', status: 409 });
      await expect(log.start(start({ workspaceId: W2, idempotencyKey: 'k-1' }))).resolves.toEqual({ callId: expect.any(String) });
      expect(calls.rows.size).toBe(2);
    });
  });

  describe('finish and record', () => {
    it('stores the ending: ENDED with the outcome, rounded duration, analysis pending', async () => {
      const { callId } = await log.start(start());
      const view = await log.finish(callId, ending());
      expect(view).toMatchObject({
        id: callId,
        status: 'ENDED',
        outcome: 'completed',
        durationMs: 60_000,
        answeredAt: '2026-03-01T09:00:05.000Z',
        endedAt: '2026-03-01T09:01:05.000Z',
        transcript: 'Agent: hello',
        analysisStatus: 'PENDING',
      });
      expect(calls.rows.get(callId)).toMatchObject({ status: 'ENDED', providerCallId: 'prov-1' });
      expect(uow.runs).toBe(1);
    });

    it('FAILED for carrier_failure; nothing to analyse without a transcript (SKIPPED)', async () => {
      const { callId } = await log.start(start());
      const view = await log.finish(callId, ending({ outcome: 'carrier_failure', answeredAt: null, durationMs: 0, transcript: '  ' }));
      expect(view).toMatchObject({ status: 'FAILED', outcome: 'carrier_failure', transcript: null, analysisStatus: 'SKIPPED' });
    });

    it('finishing a finished call returns it unchanged (finishedNow false)', async () => {
      const { callId } = await log.start(start());
      await expect(log.record(callId, ending())).resolves.toMatchObject({ finishedNow: true });
      const again = await log.record(callId, ending({ outcome: 'busy', durationMs: 0 }));
      expect(again).toMatchObject({ finishedNow: false, call: { outcome: 'completed', durationMs: 60_000 } });
      expect(calls.rows.get(callId)).toMatchObject({ outcome: 'completed' });
    });

    it('invalid_request for a negative duration; the call stays QUEUED', async () => {
      const { callId } = await log.start(start());
      await expect(log.finish(callId, ending({ durationMs: -1 }))).rejects.toMatchObject({ code: 'invalid_request' });
      expect(calls.rows.get(callId)!.status).toBe('QUEUED');
    });

    it('call_not_found for an unknown call', async () => {
      await expect(log.finish(UNKNOWN, ending())).rejects.toMatchObject({ code: 'call_not_found' });
    });
  });

  describe('get', () => {
    it("the workspace's call as a view; null for another workspace's or an unknown id", async () => {
      const { callId } = await log.start(start());
      await expect(log.get(W1, callId)).resolves.toMatchObject({ id: callId, status: 'QUEUED', startedAt: T0.toISOString(), endedAt: null });
      await expect(log.get(W2, callId)).resolves.toBeNull();
      await expect(log.get(W1, UNKNOWN)).resolves.toBeNull();
    });
  });
});
