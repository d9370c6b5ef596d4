import { Injectable } from '@nestjs/common';
import { AppError } from '@outreach/core';
import type { CallRecord } from '../call-queries';
import { AnalysisProviderError, CallAnalyser, isAnalysisProviderError } from './call-analyser.port';
import { AnalysisSubjects, CallAnalysisStore } from './call-analysis.ports';

/** What one analysis run did. */
export type AnalysisRun =
  | { outcome: 'done'; call: CallRecord }
  /** Nothing to analyse: no transcript, or neither extraction keys nor metrics. Stored as SKIPPED. */
  | { outcome: 'skipped'; reason: 'no_transcript' | 'nothing_requested'; call: CallRecord }
  /** The provider gave no usable answer. Stored as FAILED; a later run may try again. */
  | { outcome: 'failed'; error: AnalysisProviderError; call: CallRecord }
  /** DONE or SKIPPED already: nothing was done (duplicate job, or a replay). */
  | { outcome: 'already'; call: CallRecord }
  /** The call is still in progress: its ending will ask again. */
  | { outcome: 'not_finished'; call: CallRecord }
  | { outcome: 'missing' };

/**
 * Extraction + evaluation of a finished call's transcript (issue 5 §4): the campaign's effective
 * extraction keys and evaluation metrics (the agent's extraction keys for a test call), through
 * the CallAnalyser port, stored on the call with analysisStatus DONE. Idempotent: a call that is
 * DONE or SKIPPED is left alone; FAILED may be analysed again (the worker retries transient
 * provider failures).
 */
@Injectable()
export class AnalyseCall {
  constructor(
    private readonly store: CallAnalysisStore,
    private readonly subjects: AnalysisSubjects,
    private readonly analyser: CallAnalyser,
  ) {}

  /**
   * Synchronous use: answers the analysed call, or 404 call_not_found, 400 no_extraction_data
   * (nothing to analyse), 502 analysis_failed (provider failure, with upstreamStatus when it
   * answered with an error status).
   */
  async execute(workspaceId: string, callId: string): Promise<CallRecord> {
    const existing = await this.store.findById(callId);
    if (!existing || existing.workspaceId !== workspaceId) throw new AppError('call_not_found', { message: `no call ${callId}` });
    const run = await this.run(callId);
    switch (run.outcome) {
      case 'done':
        return run.call;
      case 'already':
        if (run.call.analysisStatus === 'SKIPPED') throw new AppError('no_extraction_data', { message: 'the call has nothing to analyse' });
        return run.call;
      case 'skipped':
        throw new AppError('no_extraction_data', {
          message: run.reason === 'no_transcript' ? 'the call has no transcript' : 'no extraction keys or evaluation metrics apply to this call',
        });
      case 'not_finished':
        throw new AppError('no_extraction_data', { message: 'the call is still in progress' });
      case 'failed':
        throw new AppError('analysis_failed', {
          message: run.error.message,
          upstreamStatus: run.error.upstreamStatus,
          detail: { reason: run.error.reason },
        });
      case 'missing':
        throw new AppError('call_not_found', { message: `no call ${callId}` });
    }
  }

  /** The worker's entry point: never throws for an analysis outcome, only for bugs and outages. */
  async run(callId: string): Promise<AnalysisRun> {
    const call = await this.store.findById(callId);
    if (!call) return { outcome: 'missing' };
    if (call.status === 'IN_PROGRESS') return { outcome: 'not_finished', call };
    if (call.analysisStatus === 'DONE' || call.analysisStatus === 'SKIPPED') return { outcome: 'already', call };

    if (call.transcript === null || call.transcript.trim() === '') {
      return this.skip(call, 'no_transcript');
    }
    const subject = await this.subjects.forCall(call);
    if (subject.extractionKeys.length === 0 && subject.metrics.length === 0) {
      return this.skip(call, 'nothing_requested');
    }

    try {
      const result = await this.analyser.analyse({ transcript: call.transcript, ...subject });
      await this.store.recordAnalysis(callId, { status: 'DONE', extraction: result.extraction, evaluation: result.evaluation });
    } catch (error) {
      if (!isAnalysisProviderError(error)) throw error;
      await this.store.recordAnalysis(callId, { status: 'FAILED', extraction: null, evaluation: null });
      return { outcome: 'failed', error, call: await this.reload(callId) };
    }
    const stored = await this.reload(callId);
    // A concurrent run may have stored its result first; either way the call is analysed.
    return { outcome: 'done', call: stored };
  }

  private async skip(call: CallRecord, reason: 'no_transcript' | 'nothing_requested'): Promise<AnalysisRun> {
    await this.store.recordAnalysis(call.id, { status: 'SKIPPED', extraction: null, evaluation: null });
    return { outcome: 'skipped', reason, call: await this.reload(call.id) };
  }

  private async reload(callId: string): Promise<CallRecord> {
    const call = await this.store.findById(callId);
    if (!call) throw new AppError('call_not_found', { message: `no call ${callId}` });
    return call;
  }
}
