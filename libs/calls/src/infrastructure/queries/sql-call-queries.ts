import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { CallAnalysisStore } from '../../application/analysis/call-analysis.ports';
import { toCallView } from '../../application/call-log';
import { CallListFilter, CallQueries, CallRecord, MetricOverride } from '../../application/call-queries';
import { Call } from '../../domain/call';
import { CALL_COLUMNS, callPropsFromRow } from '../sql-call.repository';

type RecordRow = Parameters<typeof callPropsFromRow>[0] & { metric_overrides: Record<string, MetricOverride> | null };

const SELECT = `SELECT ${CALL_COLUMNS.join(', ')}, metric_overrides FROM calls`;

/*
 * Newest first. A call's started_at is its created_at (both set when dialling starts), so the
 * lists walk the (workspace_id, created_at DESC, id DESC) and (campaign_id, created_at DESC)
 * indexes; from/to filter the same column.
 */
const ORDER = `ORDER BY created_at DESC, id DESC`;

function toRecord(row: RecordRow): CallRecord {
  return { ...toCallView(Call.restore(callPropsFromRow(row))), metricOverrides: row.metric_overrides ?? {} };
}

/** The calls API's reads (CallQueries) on the calls table. */
@Injectable()
export class SqlCallQueries extends CallQueries {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async list(workspaceId: string, filter: CallListFilter, page: { offset: number; limit: number }): Promise<{ items: CallRecord[]; total: number }> {
    const params: unknown[] = [workspaceId];
    const where = ['workspace_id = $1'];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.campaignId !== undefined) add('campaign_id = ?', filter.campaignId);
    if (filter.status !== undefined) add('status = ?', filter.status);
    if (filter.outcome !== undefined) add('outcome = ?', filter.outcome);
    if (filter.from !== undefined) add('created_at >= ?', filter.from);
    if (filter.to !== undefined) add('created_at < ?', filter.to);
    const condition = where.join(' AND ');
    const rows: RecordRow[] = await this.tx.manager.query(
      `${SELECT} WHERE ${condition} ${ORDER} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    );
    const [{ total }]: Array<{ total: number }> = await this.tx.manager.query(`SELECT count(*)::int AS total FROM calls WHERE ${condition}`, params);
    return { items: rows.map(toRecord), total };
  }

  async latestOfCampaign(workspaceId: string, campaignId: string, limit: number): Promise<CallRecord[]> {
    if (!isUuid(campaignId)) return [];
    const rows: RecordRow[] = await this.tx.manager.query(`${SELECT} WHERE campaign_id = $1 AND workspace_id = $2 ${ORDER} LIMIT $3`, [
      campaignId,
      workspaceId,
      limit,
    ]);
    return rows.map(toRecord);
  }

  async findById(workspaceId: string, callId: string): Promise<CallRecord | null> {
    if (!isUuid(callId)) return null;
    const rows: RecordRow[] = await this.tx.manager.query(`${SELECT} WHERE id = $1 AND workspace_id = $2`, [callId, workspaceId]);
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
    const rows: RecordRow[] = await this.tx.manager.query(`${SELECT} WHERE id = $1${lock}`, [callId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async recordAnalysis(
    callId: string,
    result: { status: 'DONE' | 'FAILED' | 'SKIPPED'; extraction: Record<string, unknown> | null; evaluation: Record<string, string> | null },
  ): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.tx.manager.query(
      `UPDATE calls SET analysis_status = $2, extraction = $3::jsonb, evaluation = $4::jsonb
        WHERE id = $1 AND analysis_status IN ('PENDING', 'FAILED')`,
      [
        callId,
        result.status,
        result.extraction === null ? null : JSON.stringify(result.extraction),
        result.evaluation === null ? null : JSON.stringify(result.evaluation),
      ],
    );
    return affected > 0;
  }

  async recordMetricOverride(callId: string, key: string, override: MetricOverride): Promise<void> {
    await this.tx.manager.query(
      `UPDATE calls SET metric_overrides = metric_overrides || jsonb_build_object($2::text, $3::jsonb) WHERE id = $1`,
      [callId, key, JSON.stringify(override)],
    );
  }
}
