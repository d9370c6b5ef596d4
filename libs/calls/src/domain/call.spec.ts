import { AppError } from '@outreach/core';
import { Call } from './call';

const T0 = new Date('2026-11-21T10:00:00Z');
const base = {
  id: '00000000-0000-4000-8000-000000000001',
  workspaceId: '00000000-0000-4000-8000-000000000002',
  campaignId: null,
  contactId: null,
  agentId: null,
  fromNumber: '+14155550100',
  toNumber: '+14155550105',
  attemptNumber: 1,
  kind: 'campaign' as const,
  now: T0,
};
const ending = (outcome: string, transcript: string | null = 'Agent: hi') => ({
  outcome,
  providerDisposition: outcome,
  providerCallId: 'p1',
  answeredAt: transcript ? new Date(T0.getTime() + 3000) : null,
  endedAt: new Date(T0.getTime() + 60_000),
  durationMs: transcript ? 57_000 : 0,
  transcript,
  recordingUrl: null,
});

describe('Call', () => {
  it('starts QUEUED at the given time, analysis pending', () => {
    const p = Call.start(base).toProps();
    expect(p).toMatchObject({ status: 'QUEUED', startedAt: T0, createdAt: T0, outcome: null, analysisStatus: 'PENDING' });
  });

  it('moves QUEUED → DIALING → RINGING → IN_PROGRESS with the provider\'s progress', () => {
    const call = Call.start(base);
    expect(call.progress('accepted', { providerCallId: 'p1' })).toBe(true);
    expect(call.toProps()).toMatchObject({ status: 'DIALING', providerCallId: 'p1' });
    expect(call.progress('ringing')).toBe(true);
    expect(call.status).toBe('RINGING');
    const at = new Date(T0.getTime() + 4000);
    expect(call.progress('answered', { at })).toBe(true);
    expect(call.toProps()).toMatchObject({ status: 'IN_PROGRESS', answeredAt: at, providerCallId: 'p1' });
    expect(call.isFinished).toBe(false);
  });

  it('late, repeated and out-of-order events change nothing; a skipped step is fine', () => {
    const call = Call.start(base);
    expect(call.progress('answered', { at: T0, providerCallId: 'p1' })).toBe(true); // ringing never reported
    const answered = call.toProps();
    expect(call.progress('ringing')).toBe(false);
    expect(call.progress('accepted', { providerCallId: 'other' })).toBe(false);
    expect(call.progress('answered', { at: new Date(T0.getTime() + 9000) })).toBe(false);
    expect(call.toProps()).toEqual(answered);
    call.finish(ending('completed'));
    const ended = call.toProps();
    expect(call.progress('ringing')).toBe(false);
    expect(call.toProps()).toEqual(ended);
  });

  it('the ending is the provider\'s last word: an ended call that was never answered has no answeredAt', () => {
    const call = Call.start(base);
    call.progress('answered', { at: T0 });
    call.finish(ending('no_answer', null));
    expect(call.toProps()).toMatchObject({ status: 'ENDED', answeredAt: null, providerCallId: 'p1' });
  });

  it('ENDED for an outcome, FAILED for carrier_failure; analysis skipped without a transcript', () => {
    const ended = Call.start(base);
    expect(ended.finish(ending('completed'))).toBe(true);
    expect(ended.toProps()).toMatchObject({ status: 'ENDED', outcome: 'completed', durationMs: 57_000, analysisStatus: 'PENDING' });
    const failed = Call.start(base);
    failed.finish(ending('carrier_failure', null));
    expect(failed.toProps()).toMatchObject({ status: 'FAILED', outcome: 'carrier_failure', analysisStatus: 'SKIPPED' });
  });

  it('finishing twice changes nothing the second time', () => {
    const call = Call.start(base);
    call.finish(ending('busy', null));
    const before = call.toProps();
    expect(call.finish(ending('completed'))).toBe(false);
    expect(call.toProps()).toEqual(before);
  });

  it('refuses a number that is not E.164', () => {
    expect(() => Call.start({ ...base, toNumber: '4155550105' })).toThrow(AppError);
  });
});
