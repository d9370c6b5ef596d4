import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { DataSource } from 'typeorm';
import { ApiLogEntry, ApiLogStore, ApiLogView } from '../application/results.ports';
import { API_LOGS } from './persistence/api-log.table';

const l = API_LOGS.c;
/** What an insert writes: id and seq are generated. */
const WRITTEN = ['workspaceId', 'campaignId', 'method', 'route', 'path', 'status', 'errorCode', 'latencyMs', 'keyId', 'requestId', 'createdAt'] as const;
const LISTED = ['seq', 'id', 'method', 'route', 'path', 'status', 'errorCode', 'latencyMs', 'keyId', 'requestId', 'createdAt'] as const;
const MAX_PATH_LENGTH = 2000;

@Injectable()
export class SqlApiLogStore extends ApiLogStore {
  constructor(
    private readonly tx: TransactionHost,
    private readonly dataSource: DataSource,
  ) {
    super();
  }

  /** Straight on the pool: log lines never join (or wait for) a request's transaction. One multi-row insert. */
  async insertMany(entries: readonly ApiLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const records = entries.map(({ at, ...logged }) => ({ ...logged, path: logged.path.slice(0, MAX_PATH_LENGTH), createdAt: at }));
    const { sql, params } = API_LOGS.insertMany(records, '', WRITTEN);
    await this.dataSource.query(sql, params);
  }

  async list(workspaceId: string, campaignId: string, beforeSeq: string | null, limit: number): Promise<Array<{ seq: string; log: ApiLogView }>> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${API_LOGS.select(undefined, LISTED)} FROM ${API_LOGS.name}
        WHERE ${l.workspaceId} = $1 AND ${l.campaignId} = $2 AND ($3::bigint IS NULL OR ${l.seq} < $3)
        ORDER BY ${l.seq} DESC
        LIMIT $4`,
      [workspaceId, campaignId, beforeSeq, limit],
    );
    return rows.map((row) => {
      const r = API_LOGS.fromRow(row, LISTED);
      // The view names error_code `error` and shows it after the status.
      const log: ApiLogView = {
        id: r.id,
        method: r.method,
        route: r.route,
        path: r.path,
        status: r.status,
        error: r.errorCode,
        latencyMs: r.latencyMs,
        keyId: r.keyId,
        requestId: r.requestId,
        createdAt: r.createdAt.toISOString(),
      };
      return { seq: r.seq, log };
    });
  }

  async purgeOlderThan(cutoff: Date, limit: number): Promise<number> {
    const [, affected]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM ${API_LOGS.name} WHERE ${l.id} IN (SELECT ${l.id} FROM ${API_LOGS.name} WHERE ${l.createdAt} < $1 LIMIT $2)`,
      [cutoff, limit],
    );
    return affected;
  }
}
