import { Injectable } from '@nestjs/common';
import { isUuid, prepared, TransactionHost } from '@outreach/platform';
import { ResultListQuery, ResultStore, StoredResult } from '../application/results.ports';
import { LeadResultEnvelope } from '../domain/lead-result';
import { LEAD_RESULTS } from './persistence/lead-result.table';

const ID_ONLY = ['id'] as const;

const r = LEAD_RESULTS.c;
const STORED = ['id', 'seq', 'workspaceId', 'campaignId', 'leadId', 'envelope', 'createdAt', 'expiresAt'] as const satisfies readonly (keyof StoredResult)[];
/** What an insert writes: seq comes from its sequence, expired_at stays null. */
const WRITTEN = ['id', 'workspaceId', 'campaignId', 'leadId', 'envelope', 'createdAt', 'expiresAt'] as const;
const LISTED = ['seq', 'envelope'] as const;
/** A result by its primary key (prepared, decisions.md 46.10). */
const FIND = prepared(`SELECT ${LEAD_RESULTS.select(undefined, STORED)} FROM ${LEAD_RESULTS.name} WHERE ${r.id} = $1 AND ${r.workspaceId} = $2`);

@Injectable()
export class SqlResultStore extends ResultStore {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(workspaceId: string, envelope: LeadResultEnvelope, expiresAt: Date): Promise<boolean> {
    // Held until commit: results of a workspace take their sequence numbers in commit order.
    await this.tx.manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('lead_results:' || $1, 0))`, [workspaceId]);
    const { sql, params } = LEAD_RESULTS.insert(
      {
        id: envelope.id,
        workspaceId,
        campaignId: envelope.data.campaignId,
        leadId: envelope.data.leadId,
        envelope,
        createdAt: new Date(envelope.createdAt),
        expiresAt,
      },
      `ON CONFLICT (${r.leadId}) DO NOTHING RETURNING 1`,
      WRITTEN,
    );
    const rows: unknown[] = await this.tx.manager.query(sql, params);
    return rows.length === 1;
  }

  async find(workspaceId: string, id: string): Promise<StoredResult | null> {
    if (!isUuid(id)) return null;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(FIND, [id, workspaceId]);
    return rows[0] ? LEAD_RESULTS.fromRow(rows[0], STORED) : null;
  }

  async idForLead(leadId: string): Promise<string | null> {
    if (!isUuid(leadId)) return null;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(`SELECT ${r.id} FROM ${LEAD_RESULTS.name} WHERE ${r.leadId} = $1`, [leadId]);
    return rows[0] ? LEAD_RESULTS.fromRow(rows[0], ID_ONLY).id : null;
  }

  async list(workspaceId: string, q: ResultListQuery): Promise<Array<{ seq: string; envelope: LeadResultEnvelope }>> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${LEAD_RESULTS.select(undefined, LISTED)} FROM ${LEAD_RESULTS.name}
        WHERE ${r.workspaceId} = $1
          AND ($2::uuid IS NULL OR ${r.campaignId} = $2)
          AND ($3::timestamptz IS NULL OR ${r.createdAt} >= $3)
          AND ($4::bigint IS NULL OR ${r.seq} > $4)
          AND ${r.expiresAt} > $5 AND ${r.envelope} IS NOT NULL
        ORDER BY ${r.seq}
        LIMIT $6`,
      [workspaceId, q.campaignId ?? null, q.since ?? null, q.afterSeq, q.now, q.limit],
    );
    // The query keeps only rows with an envelope.
    return rows.map((row) => LEAD_RESULTS.fromRow(row, LISTED) as { seq: string; envelope: LeadResultEnvelope });
  }

  async purgeExpired(now: Date, limit: number): Promise<number> {
    const [, affected]: [unknown[], number] = await this.tx.manager.query(
      `UPDATE ${LEAD_RESULTS.name} SET ${r.envelope} = NULL, ${r.expiredAt} = $1
        WHERE ${r.id} IN (
          SELECT ${r.id} FROM ${LEAD_RESULTS.name} WHERE ${r.envelope} IS NOT NULL AND ${r.expiresAt} <= $1 ORDER BY ${r.expiresAt} LIMIT $2
        )`,
      [now, limit],
    );
    return affected;
  }
}
