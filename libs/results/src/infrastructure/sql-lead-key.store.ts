import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { QueryFailedError } from 'typeorm';
import { LeadKeyRecord, LeadKeyStore, LeadPushBody } from '../application/results.ports';
import { Lead } from '../domain/lead';

type Row = {
  campaign_id: string;
  idempotency_key: string;
  workspace_id: string;
  lead_id: string | null;
  fingerprint: string;
  lead: Lead;
  response: LeadPushBody | null;
  created_at: Date;
};

const COLUMNS = 'campaign_id, idempotency_key, workspace_id, lead_id, fingerprint, lead, response, created_at';
/** How long a push waits for a concurrent push of the same key before answering 409 idempotency_in_progress. */
const KEY_LOCK_TIMEOUT = '500ms';

function toRecord(r: Row): LeadKeyRecord {
  return {
    campaignId: r.campaign_id,
    idempotencyKey: r.idempotency_key,
    workspaceId: r.workspace_id,
    leadId: r.lead_id,
    fingerprint: r.fingerprint,
    lead: r.lead,
    response: r.response,
    createdAt: r.created_at,
  };
}

@Injectable()
export class SqlLeadKeyStore extends LeadKeyStore {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async find(campaignId: string, key: string): Promise<LeadKeyRecord | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${COLUMNS} FROM api_lead_keys WHERE campaign_id = $1 AND idempotency_key = $2`,
      [campaignId, key],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /**
   * INSERT … ON CONFLICT DO NOTHING waits while another transaction holds the same key, then
   * inserts (that one rolled back) or skips (it committed). The wait is bounded by a local
   * lock_timeout; running into it means the other push is still in flight.
   */
  async claim(r: Omit<LeadKeyRecord, 'leadId' | 'response'>): Promise<boolean> {
    await this.tx.manager.query(`SET LOCAL lock_timeout = '${KEY_LOCK_TIMEOUT}'`);
    try {
      const rows: unknown[] = await this.tx.manager.query(
        `INSERT INTO api_lead_keys (campaign_id, idempotency_key, workspace_id, fingerprint, lead, created_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6)
         ON CONFLICT (campaign_id, idempotency_key) DO NOTHING
         RETURNING 1`,
        [r.campaignId, r.idempotencyKey, r.workspaceId, r.fingerprint, JSON.stringify(r.lead), r.createdAt],
      );
      await this.tx.manager.query(`SET LOCAL lock_timeout TO DEFAULT`);
      return rows.length === 1;
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '55P03') {
        throw new AppError('idempotency_in_progress', {
          message: 'a push with this idempotencyKey is still in progress; retry after Retry-After',
          headers: { 'Retry-After': '1' },
        });
      }
      throw error;
    }
  }

  async complete(campaignId: string, key: string, leadId: string, response: LeadPushBody): Promise<void> {
    await this.tx.manager.query(
      `UPDATE api_lead_keys SET lead_id = $3, response = $4::jsonb WHERE campaign_id = $1 AND idempotency_key = $2`,
      [campaignId, key, leadId, JSON.stringify(response)],
    );
  }

  async firstForLead(leadId: string): Promise<LeadKeyRecord | null> {
    if (!isUuid(leadId)) return null;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${COLUMNS} FROM api_lead_keys WHERE lead_id = $1 ORDER BY created_at, idempotency_key LIMIT 1`,
      [leadId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }
}
