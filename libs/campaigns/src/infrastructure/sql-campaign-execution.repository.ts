import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import {
  AttemptContact,
  AttemptOutcomeUpdate,
  CampaignExecutionRepository,
  CampaignLoad,
  CampaignWork,
  ClaimedContact,
  ExecutionCampaign,
} from '../application/campaign-execution.ports';
import { CampaignChannel, CampaignSource } from '../domain/campaign-kinds';
import { CampaignSettings, withDefaultSettings } from '../domain/campaign-settings';
import { CampaignStatus } from '../domain/campaign-state-machine';
import { ContactStatus } from '../domain/contact';
import { RESERVATION_LOCK_NAMESPACE } from './sql-campaign.repository';

type ContactRow = {
  id: string;
  campaign_id: string;
  workspace_id: string;
  phone: string;
  name: string | null;
  fields: Record<string, string>;
  status: string;
  attempts: number;
  attempt_seq: number;
  current_call_id: string | null;
  incomplete_retries: number;
  attempt_started_at: Date | null;
  attempt_deadline_at: Date | null;
};

const CLAIM_SET = `
  SET status = 'IN_PROGRESS', attempts = c.attempts + 1, attempt_seq = c.attempt_seq + 1,
      attempt_started_at = $2, attempt_deadline_at = $5, current_call_id = NULL, next_attempt_at = NULL,
      updated_at = now()
  FROM due WHERE c.id = due.id
  RETURNING c.id, c.phone, c.attempts, c.attempt_seq`;

/** The engine's reads and writes on campaigns and contacts (one statement each; callers hold the transaction). */
@Injectable()
export class SqlCampaignExecutionRepository extends CampaignExecutionRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async findCampaign(campaignId: string): Promise<ExecutionCampaign | null> {
    if (!isUuid(campaignId)) return null;
    const rows: Array<{
      id: string;
      workspace_id: string;
      status: string;
      channel: string;
      source: string;
      agent_id: string | null;
      timezone: string;
      reserved_concurrency: number;
      allow_burst: boolean;
      scheduled_start_at: Date | null;
      scheduled_end_at: Date | null;
      variable_map: Record<string, string>;
      settings: Partial<CampaignSettings>;
    }> = await this.tx.manager.query(
      `SELECT id, workspace_id, status, channel, source, agent_id, timezone, reserved_concurrency, allow_burst,
              scheduled_start_at, scheduled_end_at, variable_map, settings
         FROM campaigns WHERE id = $1`,
      [campaignId],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      workspaceId: r.workspace_id,
      status: r.status as CampaignStatus,
      channel: r.channel as CampaignChannel,
      source: r.source as CampaignSource,
      agentId: r.agent_id,
      timezone: r.timezone,
      reservedConcurrency: r.reserved_concurrency,
      allowBurst: r.allow_burst,
      scheduledStartAt: r.scheduled_start_at,
      scheduledEndAt: r.scheduled_end_at,
      variableMap: r.variable_map,
      settings: withDefaultSettings(r.settings),
    };
  }

  async lockWorkspace(workspaceId: string): Promise<void> {
    await this.tx.manager.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [RESERVATION_LOCK_NAMESPACE, workspaceId]);
  }

  async workspaceLoad(workspaceId: string): Promise<CampaignLoad[]> {
    const rows: Array<{ id: string; status: string; reserved_concurrency: number; allow_burst: boolean; in_flight: number }> =
      await this.tx.manager.query(
        `SELECT c.id, c.status, c.reserved_concurrency, c.allow_burst, COALESCE(f.n, 0)::int AS in_flight
           FROM campaigns c
           LEFT JOIN (SELECT campaign_id, count(*) AS n FROM campaign_contacts
                       WHERE workspace_id = $1 AND status = 'IN_PROGRESS' GROUP BY campaign_id) f ON f.campaign_id = c.id
          WHERE c.workspace_id = $1 AND (c.status = 'RUNNING' OR f.n > 0)`,
        [workspaceId],
      );
    return rows.map((r) => ({
      campaignId: r.id,
      status: r.status as CampaignStatus,
      reservedConcurrency: r.reserved_concurrency,
      allowBurst: r.allow_burst,
      inFlight: r.in_flight,
    }));
  }

  async claimDue(campaignId: string, input: { now: Date; limit: number; cooldownMs: number; deadlineAt: Date }): Promise<ClaimedContact[]> {
    if (input.limit <= 0) return [];
    const cooledBefore = new Date(input.now.getTime() - input.cooldownMs);
    type Row = { id: string; phone: string; attempts: number; attempt_seq: number };
    // Two statements, each on its own index (retry_due_idx, status_idx), rather than one OR that
    // would sort every due contact on each claim.
    const retries: Row[] = await this.tx.manager.query(
      `WITH due AS (
         SELECT id FROM campaign_contacts
          WHERE campaign_id = $1 AND status = 'RETRY_SCHEDULED' AND next_attempt_at <= $2
            AND (last_attempt_at IS NULL OR last_attempt_at <= $3)
          ORDER BY next_attempt_at, seq
          LIMIT $4
          FOR UPDATE SKIP LOCKED)
       UPDATE campaign_contacts c ${CLAIM_SET}`,
      [campaignId, input.now, cooledBefore, input.limit, input.deadlineAt],
    ).then(rowsOf<Row>);
    const left = input.limit - retries.length;
    const pending: Row[] =
      left <= 0
        ? []
        : await this.tx.manager.query(
            `WITH due AS (
               SELECT id FROM campaign_contacts
                WHERE campaign_id = $1 AND status = 'PENDING' AND $2::timestamptz IS NOT NULL
                  AND (last_attempt_at IS NULL OR last_attempt_at <= $3)
                ORDER BY seq
                LIMIT $4
                FOR UPDATE SKIP LOCKED)
             UPDATE campaign_contacts c ${CLAIM_SET}`,
            [campaignId, input.now, cooledBefore, left, input.deadlineAt],
          ).then(rowsOf<Row>);
    return [...retries, ...pending].map((r) => ({ id: r.id, phone: r.phone, attempts: r.attempts, attemptSeq: r.attempt_seq }));
  }

  async dialsOn(campaignId: string, day: string): Promise<number> {
    const rows: Array<{ dials: number }> = await this.tx.manager.query(
      `SELECT dials FROM campaign_daily_dials WHERE campaign_id = $1 AND day = $2::date`,
      [campaignId, day],
    );
    return rows[0]?.dials ?? 0;
  }

  async addDials(campaignId: string, day: string, count: number): Promise<void> {
    if (count === 0) return;
    await this.tx.manager.query(
      `INSERT INTO campaign_daily_dials (campaign_id, day, dials) VALUES ($1, $2::date, $3)
       ON CONFLICT (campaign_id, day) DO UPDATE SET dials = campaign_daily_dials.dials + EXCLUDED.dials`,
      [campaignId, day, count],
    );
  }

  async work(campaignId: string): Promise<CampaignWork> {
    const rows: Array<{ pending: boolean; in_flight: boolean; next_retry_at: Date | null }> = await this.tx.manager.query(
      `SELECT EXISTS (SELECT 1 FROM campaign_contacts WHERE campaign_id = $1 AND status = 'PENDING') AS pending,
              EXISTS (SELECT 1 FROM campaign_contacts WHERE campaign_id = $1 AND status = 'IN_PROGRESS') AS in_flight,
              (SELECT min(next_attempt_at) FROM campaign_contacts WHERE campaign_id = $1 AND status = 'RETRY_SCHEDULED') AS next_retry_at`,
      [campaignId],
    );
    return { pending: rows[0].pending, inFlight: rows[0].in_flight, nextRetryAt: rows[0].next_retry_at };
  }

  async lockContact(contactId: string): Promise<AttemptContact | null> {
    if (!isUuid(contactId)) return null;
    const lock = this.tx.inTransaction ? ' FOR UPDATE' : '';
    const rows: ContactRow[] = await this.tx.manager.query(
      `SELECT id, campaign_id, workspace_id, phone, name, fields, status, attempts, attempt_seq, current_call_id,
              incomplete_retries, attempt_started_at, attempt_deadline_at
         FROM campaign_contacts WHERE id = $1${lock}`,
      [contactId],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      campaignId: r.campaign_id,
      workspaceId: r.workspace_id,
      phone: r.phone,
      name: r.name,
      fields: r.fields,
      status: r.status as ContactStatus,
      attempts: r.attempts,
      attemptSeq: r.attempt_seq,
      currentCallId: r.current_call_id,
      incompleteRetries: r.incomplete_retries,
      attemptStartedAt: r.attempt_started_at,
      attemptDeadlineAt: r.attempt_deadline_at,
    };
  }

  async markCallStarted(contactId: string, attemptSeq: number, callId: string): Promise<void> {
    await this.tx.manager.query(
      `UPDATE campaign_contacts SET current_call_id = $3, updated_at = now()
        WHERE id = $1 AND attempt_seq = $2 AND status = 'IN_PROGRESS'`,
      [contactId, attemptSeq, callId],
    );
  }

  async recordOutcome(contactId: string, attemptSeq: number, update: AttemptOutcomeUpdate): Promise<boolean> {
    const result: unknown = await this.tx.manager.query(
      `UPDATE campaign_contacts
          SET status = $3, next_attempt_at = $4, last_outcome = $5, last_attempt_at = $6,
              incomplete_retries = incomplete_retries + $7, attempt_deadline_at = NULL, updated_at = now()
        WHERE id = $1 AND attempt_seq = $2 AND status = 'IN_PROGRESS'`,
      [contactId, attemptSeq, update.status, update.nextAttemptAt, update.lastOutcome, update.lastAttemptAt, update.incompleteRetry ? 1 : 0],
    );
    return affectedOf(result) > 0;
  }

  async release(contactId: string, attemptSeq: number, now: Date): Promise<void> {
    await this.tx.manager.query(
      `UPDATE campaign_contacts
          SET status = CASE WHEN attempts <= 1 THEN 'PENDING' ELSE 'RETRY_SCHEDULED' END,
              next_attempt_at = CASE WHEN attempts <= 1 THEN NULL ELSE $3::timestamptz END,
              attempts = GREATEST(attempts - 1, 0), attempt_deadline_at = NULL, updated_at = now()
        WHERE id = $1 AND attempt_seq = $2 AND status = 'IN_PROGRESS'`,
      [contactId, attemptSeq, now],
    );
  }

  async markDoNotCall(contacts: ReadonlyArray<{ id: string; attemptSeq: number }>): Promise<void> {
    if (contacts.length === 0) return;
    await this.tx.manager.query(
      `UPDATE campaign_contacts c
          SET status = 'DO_NOT_CALL', attempts = GREATEST(c.attempts - 1, 0), last_outcome = 'do_not_call',
              next_attempt_at = NULL, attempt_deadline_at = NULL, updated_at = now()
         FROM unnest($1::uuid[], $2::int[]) AS t(id, seq)
        WHERE c.id = t.id AND c.attempt_seq = t.seq AND c.status = 'IN_PROGRESS'`,
      [contacts.map((c) => c.id), contacts.map((c) => c.attemptSeq)],
    );
  }

  async findStuck(now: Date, limit: number): Promise<Array<{ contactId: string; attemptSeq: number }>> {
    const rows: Array<{ id: string; attempt_seq: number }> = await this.tx.manager.query(
      `SELECT id, attempt_seq FROM campaign_contacts
        WHERE status = 'IN_PROGRESS' AND attempt_deadline_at < $1
        ORDER BY attempt_deadline_at LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => ({ contactId: r.id, attemptSeq: r.attempt_seq }));
  }

  async runningCampaignIds(workspaceId?: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.tx.manager.query(
      `SELECT id FROM campaigns WHERE status = 'RUNNING' AND ($1::uuid IS NULL OR workspace_id = $1) ORDER BY id`,
      [workspaceId ?? null],
    );
    return rows.map((r) => r.id);
  }
}

/** UPDATE … RETURNING through TypeORM's query() answers [rows, affected]. */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

function affectedOf(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}
