// In-memory fakes of the calls module's ports, for use-case specs (no Nest, no database). Other
// modules' specs and fakes import this file by relative path; production code never does.
import { AppError } from '@outreach/core';
import { AnalysisSubject, AnalysisSubjects, CallAnalysisStore } from '../application/analysis/call-analysis.ports';
import { toCallView } from '../application/call-log';
import { CallListFilter, CallQueries, CallRecord, MetricOverride } from '../application/call-queries';
import { CallRepository } from '../application/calls.ports';
import { AnalysisStatus, Call, CallProps } from '../domain/call';
import type { Rollbackable } from '../../../platform/src/testing';

/**
 * Calls by id, with the port's rules: reads scoped to the workspace, idempotency keys unique per
 * workspace. Rollbackable, so a call's ending written in a transaction that fails is undone with it.
 */
export class InMemoryCallRepository extends CallRepository implements Rollbackable {
  readonly rows = new Map<string, CallProps>();

  snapshot(): unknown {
    return structuredClone(this.rows);
  }

  restore(state: unknown): void {
    this.rows.clear();
    for (const [id, props] of state as Map<string, CallProps>) this.rows.set(id, props);
  }

  async discardQueued(id: string): Promise<boolean> {
    if (this.rows.get(id)?.status !== 'QUEUED') return false;
    return this.rows.delete(id);
  }

  async insert(call: Call): Promise<void> {
    const props = call.toProps();
    if (this.rows.has(props.id)) throw new Error(`call ${props.id} exists`);
    const reused =
      props.idempotencyKey !== null &&
      [...this.rows.values()].some((c) => c.workspaceId === props.workspaceId && c.idempotencyKey === props.idempotencyKey);
    if (reused) throw new AppError('idempotency_key_reused', { status: 409, message: 'a call with this Idempotency-Key exists' });
    this.rows.set(props.id, structuredClone(props));
  }

  async insertMany(calls: readonly Call[]): Promise<void> {
    for (const call of calls) await this.insert(call);
  }

  async update(call: Call): Promise<void> {
    const props = call.toProps();
    if (!this.rows.has(props.id)) throw new Error(`no call ${props.id} to update`);
    this.rows.set(props.id, structuredClone(props));
  }

  async updateMany(calls: readonly Call[]): Promise<void> {
    for (const call of calls) await this.update(call);
  }

  async findById(workspaceId: string, id: string): Promise<Call | null> {
    const props = this.rows.get(id);
    return props && props.workspaceId === workspaceId ? Call.restore(structuredClone(props)) : null;
  }

  readonly events = new Map<string, { provider: string; eventId: string; callId: string; type: string }>();

  async recentOutcomes(campaignId: string, since: Date, limit: number, fromNumbers: readonly string[] | null = null): Promise<string[]> {
    return [...this.rows.values()]
      .filter((c) => c.campaignId === campaignId && c.createdAt.getTime() >= since.getTime() && c.outcome !== null)
      .filter((c) => fromNumbers === null || (c.fromNumber !== null && fromNumbers.includes(c.fromNumber)))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .slice(0, limit)
      .map((c) => c.outcome!);
  }

  async eventCallId(provider: string, eventId: string): Promise<string | null> {
    return this.events.get(`${provider}/${eventId}`)?.callId ?? null;
  }

  async hasEvent(provider: string, eventId: string): Promise<boolean> {
    return this.events.has(`${provider}/${eventId}`);
  }

  async addEvent(event: { provider: string; eventId: string; callId: string; type: string }): Promise<boolean> {
    const key = `${event.provider}/${event.eventId}`;
    if (this.events.has(key)) return false;
    this.events.set(key, { ...event });
    return true;
  }

  async appliedEvents(provider: string, eventIds: readonly string[]): Promise<Set<string>> {
    return new Set(eventIds.filter((eventId) => this.events.has(`${provider}/${eventId}`)));
  }

  async addEvents(events: ReadonlyArray<{ provider: string; eventId: string; callId: string; type: string }>): Promise<void> {
    for (const event of events) await this.addEvent(event);
  }

  async findAnyById(id: string): Promise<Call | null> {
    const props = this.rows.get(id);
    return props ? Call.restore(structuredClone(props)) : null;
  }

  async findAnyByIds(ids: readonly string[]): Promise<Call[]> {
    const found = [...new Set(ids)].sort().map((id) => this.rows.get(id));
    return found.filter((props): props is CallProps => props !== undefined).map((props) => Call.restore(structuredClone(props)));
  }
}

/** A finished campaign call as the calls API shows it; override any field. */
export function callRecord(overrides: Partial<CallRecord> = {}): CallRecord {
  return {
    id: 'c0000000-0000-4000-8000-000000000001',
    workspaceId: '11111111-1111-4111-8111-111111111111',
    campaignId: 'b0000000-0000-4000-8000-000000000001',
    contactId: null,
    agentId: null,
    fromNumber: '+14155550100',
    toNumber: '+14155550105',
    kind: 'campaign',
    status: 'ENDED',
    outcome: 'completed',
    providerDisposition: 'completed',
    attemptNumber: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    answeredAt: '2026-01-01T00:00:05.000Z',
    endedAt: '2026-01-01T00:01:00.000Z',
    durationMs: 55_000,
    transcript: 'Agent: hi',
    recordingUrl: null,
    providerAnalysis: null,
    extraction: null,
    evaluation: null,
    analysisStatus: 'PENDING',
    createdAt: '2026-01-01T00:00:00.000Z',
    metricOverrides: {},
    ...overrides,
  };
}

const newestFirst = (a: CallRecord, b: CallRecord) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id);

/**
 * The read side of the calls table (newest first: startedAt, then id): the records a spec pushes
 * to `records`, plus, when given a repository, the calls stored in it (as the API shows them, no
 * metric overrides), so a use case reads back what it wrote.
 */
export class InMemoryCallQueries extends CallQueries {
  readonly records: CallRecord[] = [];

  constructor(private readonly repository?: InMemoryCallRepository) {
    super();
  }

  async list(workspaceId: string, filter: CallListFilter, page: { offset: number; limit: number }): Promise<{ items: CallRecord[]; total: number }> {
    const matching = this.all()
      .filter((c) => c.workspaceId === workspaceId)
      .filter((c) => filter.campaignId === undefined || c.campaignId === filter.campaignId)
      .filter((c) => filter.status === undefined || c.status === filter.status)
      .filter((c) => filter.outcome === undefined || c.outcome === filter.outcome)
      .filter((c) => filter.from === undefined || Date.parse(c.startedAt) >= filter.from.getTime())
      .filter((c) => filter.to === undefined || Date.parse(c.startedAt) < filter.to.getTime())
      .sort(newestFirst);
    return { items: matching.slice(page.offset, page.offset + page.limit).map((c) => structuredClone(c)), total: matching.length };
  }

  async latestOfCampaign(workspaceId: string, campaignId: string, limit: number): Promise<CallRecord[]> {
    return this.all()
      .filter((c) => c.workspaceId === workspaceId && c.campaignId === campaignId)
      .sort(newestFirst)
      .slice(0, limit)
      .map((c) => structuredClone(c));
  }

  async findById(workspaceId: string, callId: string): Promise<CallRecord | null> {
    const found = this.all().find((c) => c.id === callId && c.workspaceId === workspaceId);
    return found ? structuredClone(found) : null;
  }

  private all(): CallRecord[] {
    const stored = [...(this.repository?.rows.values() ?? [])].map((p) => ({ ...toCallView(Call.restore(structuredClone(p))), metricOverrides: {} }));
    return [...this.records, ...stored];
  }
}

/**
 * Analysis results and metric overrides by call id. recordAnalysis writes unless the call is DONE
 * or SKIPPED already (a duplicate job must not overwrite the first result), like the table.
 */
export class InMemoryCallAnalysisStore extends CallAnalysisStore {
  readonly calls = new Map<string, CallRecord>();

  add(record: CallRecord): CallRecord {
    this.calls.set(record.id, structuredClone(record));
    return record;
  }

  async findById(callId: string): Promise<CallRecord | null> {
    const call = this.calls.get(callId);
    return call ? structuredClone(call) : null;
  }

  async recordAnalysis(
    callId: string,
    result: { status: Exclude<AnalysisStatus, 'PENDING'>; extraction: Record<string, unknown> | null; evaluation: Record<string, string> | null },
  ): Promise<boolean> {
    const call = this.calls.get(callId);
    if (!call || call.analysisStatus === 'DONE' || call.analysisStatus === 'SKIPPED') return false;
    this.calls.set(callId, { ...call, analysisStatus: result.status, extraction: result.extraction, evaluation: result.evaluation });
    return true;
  }

  async recordMetricOverride(callId: string, key: string, override: MetricOverride): Promise<void> {
    const call = this.calls.get(callId);
    if (!call) throw new Error(`no call ${callId}`);
    this.calls.set(callId, { ...call, metricOverrides: { ...call.metricOverrides, [key]: { ...override } } });
  }

  async pendingAnalyses(createdBefore: Date, createdAfter: Date, limit: number): Promise<string[]> {
    return [...this.calls.values()]
      .filter((call) => call.analysisStatus === 'PENDING' && (call.status === 'ENDED' || call.status === 'FAILED'))
      .filter((call) => new Date(call.createdAt) < createdBefore && new Date(call.createdAt) > createdAfter)
      .sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime())
      .slice(0, limit)
      .map((call) => call.id);
  }
}

/** Keys and metrics by campaign id (`null` = test calls); a campaign not set up has none. */
export class FixedAnalysisSubjects extends AnalysisSubjects {
  readonly byCampaign = new Map<string | null, AnalysisSubject>();

  async forCall(call: Pick<CallRecord, 'workspaceId' | 'campaignId' | 'agentId'>): Promise<AnalysisSubject> {
    return structuredClone(this.byCampaign.get(call.campaignId) ?? { extractionKeys: [], metrics: [] });
  }
}
