import { FixedClock, RecordingOutbox, RollbackUnitOfWork } from '../../../../platform/src/testing';
import { callRecord, InMemoryCallAnalysisStore } from '../../testing';
import { CallsJob, CallsQueue } from '../calls.ports';
import { ResumeAnalyses } from './resume-analyses';

/* The analysis sweep with its ports faked: which calls get their job again, under which id. */

const PLACED = new Date('2026-01-01T00:00:00.000Z');

describe('ResumeAnalyses', () => {
  let store: InMemoryCallAnalysisStore;
  let outbox: RecordingOutbox;
  let clock: FixedClock;
  let sweep: ResumeAnalyses;

  beforeEach(() => {
    store = new InMemoryCallAnalysisStore();
    outbox = new RecordingOutbox();
    clock = new FixedClock(PLACED);
    sweep = new ResumeAnalyses(store, outbox, new RollbackUnitOfWork(), clock);
    store.add(callRecord({ id: 'pending-ended', status: 'ENDED', analysisStatus: 'PENDING' }));
    store.add(callRecord({ id: 'pending-failed', status: 'FAILED', analysisStatus: 'PENDING' }));
    store.add(callRecord({ id: 'live', status: 'IN_PROGRESS', analysisStatus: 'PENDING' }));
    store.add(callRecord({ id: 'done', status: 'ENDED', analysisStatus: 'DONE' }));
    store.add(callRecord({ id: 'skipped', status: 'ENDED', analysisStatus: 'SKIPPED' }));
  });

  it('re-adds, under the job id analyse-<callId>, the job of every call over with its analysis PENDING once idleMs passed', async () => {
    clock.advance(1_999);
    expect(await sweep.execute(2_000)).toBe(0);
    clock.advance(2);
    expect(await sweep.execute(2_000)).toBe(2);
    expect(outbox.named(CallsQueue.Calls, CallsJob.Analyse).map((j) => [j.jobId, j.payload])).toEqual([
      ['analyse-pending-ended', { callId: 'pending-ended' }],
      ['analyse-pending-failed', { callId: 'pending-failed' }],
    ]);
  });

  it('the idle time is the caller\'s (CALL_ANALYSIS_IDLE_MS): a minute asks for more than two seconds', async () => {
    clock.advance(30_000);
    expect(await sweep.execute(60_000)).toBe(0);
    expect(await sweep.execute(2_000)).toBe(2);
  });

  it('leaves calls placed more than a day ago alone', async () => {
    clock.advance(24 * 3600 * 1000 + 1);
    expect(await sweep.execute(2_000)).toBe(0);
    expect(outbox.jobs).toEqual([]);
  });
});
