import type { OutboxJob } from '@outreach/core';
import type { AnalysisStatus } from '../../domain/call';
import type { CallRecord, MetricOverride } from '../call-queries';
import { CallsJob, CallsQueue } from '../calls.ports';
import type { AnalysisExtractionKey, AnalysisMetric } from './call-analyser.port';

/** What the analysis of one call looks at: the campaign's effective keys and metrics (agent keys for test calls). */
export interface AnalysisSubject {
  extractionKeys: AnalysisExtractionKey[];
  metrics: AnalysisMetric[];
}

/** Where a call's extraction keys and evaluation metrics come from (campaigns, agents). */
export abstract class AnalysisSubjects {
  abstract forCall(call: Pick<CallRecord, 'workspaceId' | 'campaignId' | 'agentId'>): Promise<AnalysisSubject>;
}

/** Analysis results and metric overrides on the calls table (by id: the worker and the CLI know no workspace). */
export abstract class CallAnalysisStore {
  /** Any call by id; `lock` takes the row lock inside a transaction. */
  abstract findById(callId: string, options?: { lock?: boolean }): Promise<CallRecord | null>;

  /**
   * Stores the analysis outcome unless the call is DONE or SKIPPED already (a duplicate job must
   * not overwrite the first result); false when nothing was written.
   */
  abstract recordAnalysis(
    callId: string,
    result: { status: Exclude<AnalysisStatus, 'PENDING'>; extraction: Record<string, unknown> | null; evaluation: Record<string, string> | null },
  ): Promise<boolean>;

  /** Sets (or replaces) the override of one metric. */
  abstract recordMetricOverride(callId: string, key: string, override: MetricOverride): Promise<void>;

  /**
   * Ids of calls that are over (ENDED or FAILED) with their analysis still PENDING, created between
   * `createdAfter` and `createdBefore`, oldest first, at most `limit` (the analysis sweep, decisions.md 37.17).
   */
  abstract pendingAnalyses(createdBefore: Date, createdAfter: Date, limit: number): Promise<string[]>;
}

export interface AnalyseCallPayload {
  callId: string;
}

/**
 * The outbox job that analyses a finished call (queue `calls`, job `analyse`), under the job id
 * `analyse-<callId>`: the analysis sweep adds it again without a second analysis while the first
 * job is still queued, running or kept as completed.
 */
export function analyseCallJob(callId: string): OutboxJob {
  const payload: AnalyseCallPayload = { callId };
  return { queue: CallsQueue.Calls, name: CallsJob.Analyse, payload: { ...payload }, jobId: `analyse-${callId}` };
}
