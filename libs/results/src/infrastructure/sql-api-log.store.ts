import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { DataSource } from 'typeorm';
import { ApiLogEntry, ApiLogStore, ApiLogView } from '../application/results.ports';

type Row = {
  id: string;
  seq: string;
  method: string;
  route: string;
  path: string;
  status: number;
  error_code: string | null;
  latency_ms: number;
  key_id: string | null;
  request_id: string | null;
  created_at: Date;
};

@Injectable()
export class SqlApiLogStore extends ApiLogStore {
  constructor(
    private readonly tx: TransactionHost,
    private readonly dataSource: DataSource,
  ) {
    super();
  }

  /** Straight on the pool: a log line never joins (or waits for) a request's transaction. */
  async insert(e: ApiLogEntry): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO api_logs (workspace_id, campaign_id, method, route, path, status, error_code, latency_ms, key_id, request_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [e.workspaceId, e.campaignId, e.method, e.route, e.path.slice(0, 2000), e.status, e.errorCode, e.latencyMs, e.keyId, e.requestId, e.at],
    );
  }

  async list(workspaceId: string, campaignId: string, beforeSeq: string | null, limit: number): Promise<Array<{ seq: string; log: ApiLogView }>> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT id, seq::text AS seq, method, route, path, status, error_code, latency_ms, key_id, request_id, created_at
         FROM api_logs
        WHERE workspace_id = $1 AND campaign_id = $2 AND ($3::bigint IS NULL OR seq < $3)
        ORDER BY seq DESC
        LIMIT $4`,
      [workspaceId, campaignId, beforeSeq, limit],
    );
    return rows.map((r) => ({
      seq: r.seq,
      log: {
        id: r.id,
        method: r.method,
        route: r.route,
        path: r.path,
        status: r.status,
        error: r.error_code,
        latencyMs: r.latency_ms,
        keyId: r.key_id,
        requestId: r.request_id,
        createdAt: r.created_at.toISOString(),
      },
    }));
  }

  async purgeOlderThan(cutoff: Date, limit: number): Promise<number> {
    const [, affected]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM api_logs WHERE id IN (SELECT id FROM api_logs WHERE created_at < $1 LIMIT $2)`,
      [cutoff, limit],
    );
    return affected;
  }
}
