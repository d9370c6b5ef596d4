import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { ApiLeadContactInput, ApiLeadContactStore, ApiLeadContactView } from '../application/api-lead-intake.service';
import { ContactStatus } from '../domain/contact';
import { addToContactCount } from './contact-count.sql';

type Row = {
  id: string;
  campaign_id: string;
  phone: string;
  name: string | null;
  fields: Record<string, string>;
  status: string;
  attempts: number;
  last_outcome: string | null;
  last_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

@Injectable()
export class SqlApiLeadContactStore extends ApiLeadContactStore {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async lockCampaign(workspaceId: string, campaignId: string) {
    if (!isUuid(campaignId)) return null;
    const rows: Array<{ id: string; source: string; status: string; country_code: string | null }> = await this.tx.manager.query(
      `SELECT id, source, status, country_code FROM campaigns WHERE id = $1 AND workspace_id = $2 FOR KEY SHARE`,
      [campaignId, workspaceId],
    );
    const r = rows[0];
    return r ? { id: r.id, source: r.source, status: r.status, countryCode: r.country_code } : null;
  }

  /**
   * One statement: the insert (skipped when the campaign has the phone), the contact count, and
   * the id of whichever row holds the phone. The final SELECT reads the statement's snapshot, so
   * it sees the existing row only when the insert did not happen.
   */
  async insertOrFind(workspaceId: string, campaignId: string, c: ApiLeadContactInput): Promise<{ id: string; created: boolean }> {
    const rows: Array<{ id: string; created: boolean }> = await this.tx.manager.query(
      `WITH ins AS (
         INSERT INTO campaign_contacts (campaign_id, workspace_id, phone, name, fields)
         VALUES ($1, $2, $3, $4, $5::jsonb)
         ON CONFLICT (campaign_id, phone) DO NOTHING
         RETURNING id
       ), counted AS (
         ${addToContactCount('$1', 'SELECT count(*) FROM ins')}
       )
       SELECT id, true AS created FROM ins
       UNION ALL
       SELECT id, false AS created FROM campaign_contacts
        WHERE campaign_id = $1 AND phone = $3 AND NOT EXISTS (SELECT 1 FROM ins)`,
      [campaignId, workspaceId, c.phone, c.name, JSON.stringify(c.fields)],
    );
    if (rows[0]) return rows[0];
    // The insert waited for a concurrent one of the same phone and then skipped: that row
    // committed after this statement's snapshot, so read it with a fresh one.
    const again: Array<{ id: string }> = await this.tx.manager.query(
      `SELECT id FROM campaign_contacts WHERE campaign_id = $1 AND phone = $2`,
      [campaignId, c.phone],
    );
    return { id: again[0].id, created: false };
  }

  async find(campaignId: string, contactId: string): Promise<ApiLeadContactView | null> {
    if (!isUuid(campaignId) || !isUuid(contactId)) return null;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT id, campaign_id, phone, name, fields, status, attempts, last_outcome, last_attempt_at, created_at, updated_at
         FROM campaign_contacts WHERE campaign_id = $1 AND id = $2`,
      [campaignId, contactId],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      campaignId: r.campaign_id,
      phone: r.phone,
      name: r.name,
      fields: r.fields,
      status: r.status as ContactStatus,
      attempts: r.attempts,
      lastOutcome: r.last_outcome,
      lastAttemptAt: r.last_attempt_at?.toISOString() ?? null,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
    };
  }
}
