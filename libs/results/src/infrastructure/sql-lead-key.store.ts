import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { QueryFailedError } from 'typeorm';
import { LeadKeyRecord, LeadKeyStore } from '../application/results.ports';
import { API_LEAD_KEYS } from './persistence/api-lead-key.table';

const k = API_LEAD_KEYS.c;
const SELECT = `SELECT ${API_LEAD_KEYS.select()} FROM ${API_LEAD_KEYS.name}`;
/** How long a push waits for a concurrent push of the same key before answering 409 idempotency_in_progress. */
export const KEY_LOCK_TIMEOUT = '500ms';

@Injectable()
export class SqlLeadKeyStore extends LeadKeyStore {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async find(campaignId: string, key: string): Promise<LeadKeyRecord | null> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(`${SELECT} WHERE ${k.campaignId} = $1 AND ${k.idempotencyKey} = $2`, [
      campaignId,
      key,
    ]);
    return rows[0] ? API_LEAD_KEYS.fromRow(rows[0]) : null;
  }

  /**
   * INSERT … ON CONFLICT DO NOTHING waits while another transaction holds the same key, then
   * inserts (that one rolled back) or skips (it committed). The wait is bounded by a local
   * lock_timeout; running into it means the other push is still in flight. The claim is the
   * transaction's last statement, so the bound is not set back (one round trip fewer), and it is
   * set by the claim's own statement (decisions.md 46.7): the row to insert is selected from the
   * `set_config` call, so the bound is in force before the insert can wait (another round trip fewer).
   */
  async claim(r: LeadKeyRecord): Promise<boolean> {
    try {
      const { sql, params } = API_LEAD_KEYS.insertSelect(r, 'bound', `ON CONFLICT (${k.campaignId}, ${k.idempotencyKey}) DO NOTHING RETURNING 1`);
      const rows: unknown[] = await this.tx.manager.query(`WITH bound AS (SELECT set_config('lock_timeout', '${KEY_LOCK_TIMEOUT}', true)) ${sql}`, params);
      return rows.length === 1;
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '55P03') {
        throw keyInProgress();
      }
      throw error;
    }
  }

  async firstForLead(leadId: string): Promise<LeadKeyRecord | null> {
    if (!isUuid(leadId)) return null;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `${SELECT} WHERE ${k.leadId} = $1 ORDER BY ${k.createdAt}, ${k.idempotencyKey} LIMIT 1`,
      [leadId],
    );
    return rows[0] ? API_LEAD_KEYS.fromRow(rows[0]) : null;
  }
}

/** 409: a push of the key is still in flight past the key's lock bound. */
export function keyInProgress(): AppError {
  return new AppError('idempotency_in_progress', {
    message: 'a push with this idempotencyKey is still in progress; retry after Retry-After',
    headers: { 'Retry-After': '1' },
  });
}
