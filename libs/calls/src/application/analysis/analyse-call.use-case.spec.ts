import { AppError } from '@outreach/core';
import { callRecord, FixedAnalysisSubjects, InMemoryCallAnalysisStore } from '../../testing';
import type { CallRecord } from '../call-queries';
import { AnalyseCall } from './analyse-call.use-case';
import { AnalysisInput, AnalysisProviderError, AnalysisResult, CallAnalyser } from './call-analyser.port';
import { AnalysisSubject } from './call-analysis.ports';

/* AnalyseCall with its ports faked: the status rules, without Nest or a database. */

class ScriptedAnalyser extends CallAnalyser {
  calls = 0;
  next: () => Promise<AnalysisResult> = async () => ({ extraction: { budget: 1 }, evaluation: {} });
  analyse(_input: AnalysisInput): Promise<AnalysisResult> {
    this.calls += 1;
    return this.next();
  }
}

const BUDGET: AnalysisSubject = { extractionKeys: [{ name: 'budget', type: 'number', description: '' }], metrics: [] };

/** A finished call of campaign k1 in workspace w1 (PENDING analysis, a transcript). */
const call = (overrides: Partial<CallRecord> = {}): CallRecord => callRecord({ id: 'c1', workspaceId: 'w1', campaignId: 'k1', ...overrides });

describe('AnalyseCall', () => {
  let store: InMemoryCallAnalysisStore;
  let subjects: FixedAnalysisSubjects;
  let analyser: ScriptedAnalyser;
  let useCase: AnalyseCall;

  beforeEach(() => {
    store = new InMemoryCallAnalysisStore();
    subjects = new FixedAnalysisSubjects();
    subjects.byCampaign.set('k1', BUDGET);
    analyser = new ScriptedAnalyser();
    useCase = new AnalyseCall(store, subjects, analyser);
  });

  it('PENDING → DONE with the result; a second run is a no-op that asks nobody', async () => {
    store.add(call());
    expect((await useCase.run('c1')).outcome).toBe('done');
    expect(store.calls.get('c1')).toMatchObject({ analysisStatus: 'DONE', extraction: { budget: 1 }, evaluation: {} });
    expect((await useCase.run('c1')).outcome).toBe('already');
    expect(analyser.calls).toBe(1);
  });

  it('no transcript, or nothing requested → SKIPPED without asking the provider', async () => {
    store.add(call({ transcript: null }));
    expect(await useCase.run('c1')).toMatchObject({ outcome: 'skipped', reason: 'no_transcript' });
    store.add(call({ id: 'c2' }));
    subjects.byCampaign.set('k1', { extractionKeys: [], metrics: [] });
    expect(await useCase.run('c2')).toMatchObject({ outcome: 'skipped', reason: 'nothing_requested' });
    expect([store.calls.get('c1')!.analysisStatus, store.calls.get('c2')!.analysisStatus]).toEqual(['SKIPPED', 'SKIPPED']);
    expect(analyser.calls).toBe(0);
  });

  it('a provider failure → FAILED (retryable or not, as the error says); FAILED runs again', async () => {
    store.add(call());
    analyser.next = async () => {
      throw new AnalysisProviderError('upstream_status', 'down', 503);
    };
    const failed = await useCase.run('c1');
    expect(failed.outcome).toBe('failed');
    expect(failed.outcome === 'failed' && failed.error.retryable).toBe(true);
    expect(store.calls.get('c1')!.analysisStatus).toBe('FAILED');
    analyser.next = async () => ({ extraction: { budget: 2 }, evaluation: {} });
    expect((await useCase.run('c1')).outcome).toBe('done');
  });

  it('an in-progress or unknown call is left alone; other errors propagate', async () => {
    store.add(call({ status: 'IN_PROGRESS', transcript: null }));
    expect((await useCase.run('c1')).outcome).toBe('not_finished');
    expect((await useCase.run('nope')).outcome).toBe('missing');
    store.add(call({ id: 'c2' }));
    analyser.next = async () => {
      throw new Error('bug');
    };
    await expect(useCase.run('c2')).rejects.toThrow('bug');
    expect(store.calls.get('c2')!.analysisStatus).toBe('PENDING');
  });

  it('synchronously: 400 no_extraction_data, 502 analysis_failed with upstreamStatus, 404 call_not_found for another workspace', async () => {
    const code = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: AppError) => ({ code: e.code, status: e.status, upstreamStatus: e.options.upstreamStatus }),
      );
    store.add(call({ transcript: '  ' }));
    expect(await code(useCase.execute('w1', 'c1'))).toEqual({ code: 'no_extraction_data', status: 400, upstreamStatus: undefined });
    expect(await code(useCase.execute('w1', 'c1'))).toEqual({ code: 'no_extraction_data', status: 400, upstreamStatus: undefined });
    store.add(call({ id: 'c2' }));
    analyser.next = async () => {
      throw new AnalysisProviderError('upstream_status', 'rate limited', 429);
    };
    expect(await code(useCase.execute('w1', 'c2'))).toEqual({ code: 'analysis_failed', status: 502, upstreamStatus: 429 });
    expect(await code(useCase.execute('w2', 'c2'))).toEqual({ code: 'call_not_found', status: 404, upstreamStatus: undefined });
  });
});
