import { AppError } from '@outreach/core';
import { toCallView } from '../application/call-log';
import { CallListFilter, CallQueries, CallRecord } from '../application/call-queries';
import { CallRepository } from '../application/calls.ports';
import { Call, CallProps } from '../domain/call';

/** Calls in memory (stored as props, handed out as fresh aggregates); one call per workspace and idempotency key. */
export class RecordingCallRepository extends CallRepository {
  readonly calls = new Map<string, CallProps>();

  async insert(call: Call): Promise<void> {
    const p = call.toProps();
    if (p.idempotencyKey !== null && [...this.calls.values()].some((c) => c.workspaceId === p.workspaceId && c.idempotencyKey === p.idempotencyKey)) {
      throw new AppError('idempotency_key_reused', { message: 'a call with this Idempotency-Key exists' });
    }
    this.calls.set(p.id, p);
  }

  async update(call: Call): Promise<void> {
    this.calls.set(call.id, call.toProps());
  }

  async findById(workspaceId: string, id: string): Promise<Call | null> {
    const p = this.calls.get(id);
    return p && p.workspaceId === workspaceId ? Call.restore(p) : null;
  }

  async findAnyById(id: string): Promise<Call | null> {
    const p = this.calls.get(id);
    return p ? Call.restore(p) : null;
  }
}

/** The API's reads over an RecordingCallRepository (newest first; no metric overrides). */
export class RecordingCallQueries extends CallQueries {
  constructor(private readonly repository: RecordingCallRepository) {
    super();
  }

  async list(workspaceId: string, filter: CallListFilter, page: { offset: number; limit: number }): Promise<{ items: CallRecord[]; total: number }> {
    const all = this.records(workspaceId).filter(
      (c) =>
        (filter.campaignId === undefined || c.campaignId === filter.campaignId) &&
        (filter.status === undefined || c.status === filter.status) &&
        (filter.outcome === undefined || c.outcome === filter.outcome) &&
        (filter.from === undefined || new Date(c.startedAt) >= filter.from) &&
        (filter.to === undefined || new Date(c.startedAt) < filter.to),
    );
    return { items: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }

  async latestOfCampaign(workspaceId: string, campaignId: string, limit: number): Promise<CallRecord[]> {
    return this.records(workspaceId)
      .filter((c) => c.campaignId === campaignId)
      .slice(0, limit);
  }

  async findById(workspaceId: string, callId: string): Promise<CallRecord | null> {
    return this.records(workspaceId).find((c) => c.id === callId) ?? null;
  }

  private records(workspaceId: string): CallRecord[] {
    return [...this.repository.calls.values()]
      .filter((p) => p.workspaceId === workspaceId)
      .map((p) => ({ ...toCallView(Call.restore(p)), metricOverrides: {} }))
      .sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id < b.id ? 1 : -1));
  }
}
