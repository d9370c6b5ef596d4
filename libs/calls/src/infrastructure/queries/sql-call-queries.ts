import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { CallAnalysisStore } from '../../application/analysis/call-analysis.ports';
import { toCallView } from '../../application/call-log';
import { CallListFilter, CallQueries, CallRecord, MetricOverride } from '../../application/call-queries';
import { Call } from '../../domain/call';
import { CALLS } from '../persistence/call.table';

const c = CALLS.c;
const SELECT = `SELECT ${CALLS.select()} FROM ${CALLS.name}`;

/*
 * Newest first. A call's started_at is its created_at (both set when dialling starts), so the
 * lists walk the (workspace_id, created_at DESC, id DESC) and (campaign_id, created_at DESC)
 * indexes; from/to filter the same column.
 */
const ORDER = `ORDER BY ${c.createdAt} DESC, ${c.id} DESC`;

function toRecord(row: Record<string, unknown>): CallRecord {
  const { metricOverrides, ...props } = CALLS.fromRow(row);
  return { ...toCallView(Call.restore(props)), metricOverrides };
}

/** The calls API's reads (CallQueries) on the calls table. */
@Injectable()
export class SqlCallQueries extends CallQueries {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async list(workspaceId: string, filter: CallListFilter, page: { offset: number; limit: number }): Promise<{ items: CallRecord[]; total: number }> {
    const params: unknown[] = [workspaceId];
    const where = [`${c.workspaceId} = $1`];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.campaignId !== undefined) add(`${c.campaignId} = ?`, filter.campaignId);
    if (filter.status !== undefined) add(`${c.status} = ?`, filter.status);
    if (filter.outcome !== undefined) add(`${c.outcome} = ?`, filter.outcome);
    if (filter.from !== undefined) add(`${c.createdAt} >= ?`, filter.from);
    if (filter.to !== undefined) add(`${c.createdAt} < ?`, filter.to);
    const condition = where.join(' AND ');
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `${SELECT} WHERE ${condition} ${ORDER} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    );
    const [{ total }]: Array<{ total: number }> = await this.tx.manager.query(`SELECT count(*)::int AS total FROM ${CALLS.name} WHERE ${condition}`, params);
    return { items: rows.map(toRecord), total };
  }

  async latestOfCampaign(workspaceId: string, campaignId: string, limit: number): Promise<CallRecord[]> {
    if (!isUuid(campaignId)) return [];
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(`${SELECT} WHERE ${c.campaignId} = $1 AND ${c.workspaceId} = $2 ${ORDER} LIMIT $3`, [
      campaignId,
      workspaceId,
      limit,
    ]);
    return rows.map(toRecord);
  }

  async findById(workspaceId: string, callId: string): Promise<CallRecord | null> {
    if (!isUuid(callId)) return null;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(`${SELECT} WHERE ${c.id} = $1 AND ${c.workspaceId} = $2`, [callId, workspaceId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }
}

/** Analysis results and metric overrides (CallAnalysisStore): only their own columns are written. */
@Injectable()
export class SqlCallAnalysisStore extends CallAnalysisStore {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async findById(callId: string, options: { lock?: boolean } = {}): Promise<CallRecord | null> {
    if (!isUuid(callId)) return null;
    const lock = options.lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(`${SELECT} WHERE ${c.id} = $1${lock}`, [callId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async recordAnalysis(
    callId: string,
    result: { status: 'DONE' | 'FAILED' | 'SKIPPED'; extraction: Record<string, unknown> | null; evaluation: Record<string, string> | null },
  ): Promise<boolean> {
    const { sql, params } = CALLS.update(
      { id: callId, analysisStatus: result.status, extraction: result.extraction, evaluation: result.evaluation },
      ['id'],
      ['analysisStatus', 'extraction', 'evaluation'],
    );
    const [, affected]: [unknown, number] = await this.tx.manager.query(`${sql} AND ${c.analysisStatus} IN ('PENDING', 'FAILED')`, params);
    return affected > 0;
  }

  async recordMetricOverride(callId: string, key: string, override: MetricOverride): Promise<void> {
    await this.tx.manager.query(
      `UPDATE ${CALLS.name} SET ${c.metricOverrides} = ${c.metricOverrides} || jsonb_build_object($2::text, $3::jsonb) WHERE ${c.id} = $1`,
      [callId, key, JSON.stringify(override)],
    );
  }

  /** Walks the partial index calls_analysis_pending_idx (created_at WHERE analysis_status = 'PENDING'). */
  async pendingAnalyses(createdBefore: Date, createdAfter: Date, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.tx.manager.query(
      `SELECT ${c.id} AS id FROM ${CALLS.name}
        WHERE ${c.analysisStatus} = 'PENDING' AND ${c.status} IN ('ENDED', 'FAILED') AND ${c.createdAt} < $1 AND ${c.createdAt} > $2
        ORDER BY ${c.createdAt} LIMIT $3`,
      [createdBefore, createdAfter, limit],
    );
    return rows.map((r) => r.id);
  }
}
