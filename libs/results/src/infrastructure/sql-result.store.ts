import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { ResultListQuery, ResultStore, StoredResult } from '../application/results.ports';
import { envelopeInSpecOrder, LeadResultEnvelope } from '../domain/lead-result';

type Row = {
  id: string;
  seq: string;
  workspace_id: string;
  campaign_id: string;
  lead_id: string;
  envelope: LeadResultEnvelope | null;
  created_at: Date;
  expires_at: Date;
};

@Injectable()
export class SqlResultStore extends ResultStore {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(workspaceId: string, envelope: LeadResultEnvelope, expiresAt: Date): Promise<boolean> {
    // Held until commit: results of a workspace take their sequence numbers in commit order.
    await this.tx.manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('lead_results:' || $1, 0))`, [workspaceId]);
    const rows: unknown[] = await this.tx.manager.query(
      `INSERT INTO lead_results (id, workspace_id, campaign_id, lead_id, envelope, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)
       ON CONFLICT (lead_id) DO NOTHING
       RETURNING 1`,
      [envelope.id, workspaceId, envelope.data.campaignId, envelope.data.leadId, JSON.stringify(envelope), new Date(envelope.createdAt), expiresAt],
    );
    return rows.length === 1;
  }

  async find(workspaceId: string, id: string): Promise<StoredResult | null> {
    if (!isUuid(id)) return null;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT id, seq, workspace_id, campaign_id, lead_id, envelope, created_at, expires_at
         FROM lead_results WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId],
    );
    const r = rows[0];
    return r
      ? {
          id: r.id,
          seq: String(r.seq),
          workspaceId: r.workspace_id,
          campaignId: r.campaign_id,
          leadId: r.lead_id,
          envelope: r.envelope ? envelopeInSpecOrder(r.envelope) : null,
          createdAt: r.created_at,
          expiresAt: r.expires_at,
        }
      : null;
  }

  async idForLead(leadId: string): Promise<string | null> {
    if (!isUuid(leadId)) return null;
    const rows: Array<{ id: string }> = await this.tx.manager.query(`SELECT id FROM lead_results WHERE lead_id = $1`, [leadId]);
    return rows[0]?.id ?? null;
  }

  async list(workspaceId: string, q: ResultListQuery): Promise<Array<{ seq: string; envelope: LeadResultEnvelope }>> {
    const rows: Array<{ seq: string; envelope: LeadResultEnvelope }> = await this.tx.manager.query(
      `SELECT seq::text AS seq, envelope FROM lead_results
        WHERE workspace_id = $1
          AND ($2::uuid IS NULL OR campaign_id = $2)
          AND ($3::timestamptz IS NULL OR created_at >= $3)
          AND ($4::bigint IS NULL OR seq > $4)
          AND expires_at > $5 AND envelope IS NOT NULL
        ORDER BY seq
        LIMIT $6`,
      [workspaceId, q.campaignId ?? null, q.since ?? null, q.afterSeq, q.now, q.limit],
    );
    return rows.map((r) => ({ seq: r.seq, envelope: envelopeInSpecOrder(r.envelope) }));
  }

  async purgeExpired(now: Date, limit: number): Promise<number> {
    const [, affected]: [unknown[], number] = await this.tx.manager.query(
      `UPDATE lead_results SET envelope = NULL, expired_at = $1
        WHERE id IN (SELECT id FROM lead_results WHERE envelope IS NOT NULL AND expires_at <= $1 ORDER BY expires_at LIMIT $2)`,
      [now, limit],
    );
    return affected;
  }
}
