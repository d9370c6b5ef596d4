import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { CampaignPhoneNumberRepository, ContactRepository, ContactView, NewContact } from '../application/campaigns.ports';
import { ContactStatus } from '../domain/contact';
import { addToContactCount } from './contact-count.sql';

type ContactRow = {
  id: string;
  campaign_id: string;
  phone: string;
  alt_phones: string[];
  name: string | null;
  fields: Record<string, string>;
  status: string;
  attempts: number;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  last_outcome: string | null;
  created_at: Date;
  updated_at: Date;
};

function toView(r: ContactRow): ContactView {
  return {
    id: r.id,
    campaignId: r.campaign_id,
    phone: r.phone,
    altPhones: r.alt_phones,
    name: r.name,
    fields: r.fields,
    status: r.status as ContactStatus,
    attempts: r.attempts,
    lastAttemptAt: r.last_attempt_at?.toISOString() ?? null,
    nextAttemptAt: r.next_attempt_at?.toISOString() ?? null,
    lastOutcome: r.last_outcome,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

const CONTACT_COLUMNS = `id, campaign_id, phone, alt_phones, name, fields, status, attempts, last_attempt_at, next_attempt_at,
  last_outcome, created_at, updated_at`;

@Injectable()
export class SqlContactRepository extends ContactRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  /**
   * One statement per batch: the rows travel as parallel arrays and unnest into an INSERT that
   * skips phones the campaign already has. The campaign's contact count moves in the same statement.
   */
  async insertMany(workspaceId: string, campaignId: string, contacts: readonly NewContact[]): Promise<number> {
    if (contacts.length === 0) return 0;
    const rows: Array<{ inserted: number }> = await this.tx.manager.query(
      `WITH input AS (
         SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::jsonb[]) WITH ORDINALITY AS t(phone, alt, name, fields, ord)
       ), inserted AS (
         INSERT INTO campaign_contacts (campaign_id, workspace_id, phone, alt_phones, name, fields)
         SELECT $1, $2, phone, CASE WHEN alt = '' THEN '{}'::text[] ELSE string_to_array(alt, ' ') END, name, fields
           FROM input ORDER BY ord
         ON CONFLICT (campaign_id, phone) DO NOTHING
         RETURNING 1
       ), counted AS (
         ${addToContactCount('$1', 'SELECT count(*) FROM inserted')}
       )
       SELECT count(*)::int AS inserted FROM inserted`,
      [
        campaignId,
        workspaceId,
        contacts.map((c) => c.phone),
        contacts.map((c) => c.altPhones.join(' ')),
        contacts.map((c) => c.name),
        contacts.map((c) => JSON.stringify(c.fields)),
      ],
    );
    return rows[0].inserted;
  }

  async count(campaignId: string, status?: ContactStatus): Promise<number> {
    const rows: Array<{ n: number }> = status
      ? await this.tx.manager.query(`SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1 AND status = $2`, [
          campaignId,
          status,
        ])
      : await this.tx.manager.query(`SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1`, [campaignId]);
    return rows[0].n;
  }

  async hasAny(campaignId: string): Promise<boolean> {
    const rows: unknown[] = await this.tx.manager.query(`SELECT 1 FROM campaign_contacts WHERE campaign_id = $1 LIMIT 1`, [campaignId]);
    return rows.length > 0;
  }

  async list(
    campaignId: string,
    query: { offset: number; limit: number; status?: ContactStatus },
  ): Promise<{ items: ContactView[]; total: number }> {
    const filter = query.status ? `AND status = $2` : `AND $2::text IS NULL`;
    const params = [campaignId, query.status ?? null];
    const rows: ContactRow[] = await this.tx.manager.query(
      `SELECT ${CONTACT_COLUMNS} FROM campaign_contacts WHERE campaign_id = $1 ${filter} ORDER BY seq LIMIT $3 OFFSET $4`,
      [...params, query.limit, query.offset],
    );
    const [{ total }]: Array<{ total: number }> = await this.tx.manager.query(
      `SELECT count(*)::int AS total FROM campaign_contacts WHERE campaign_id = $1 ${filter}`,
      params,
    );
    return { items: rows.map(toView), total };
  }

  async findById(campaignId: string, contactId: string): Promise<ContactView | null> {
    if (!isUuid(contactId)) return null;
    const rows: ContactRow[] = await this.tx.manager.query(
      `SELECT ${CONTACT_COLUMNS} FROM campaign_contacts WHERE campaign_id = $1 AND id = $2`,
      [campaignId, contactId],
    );
    return rows[0] ? toView(rows[0]) : null;
  }

  async resetToPending(campaignId: string, statuses: readonly ContactStatus[], contactId?: string): Promise<number> {
    const [, affected]: [unknown[], number] = await this.tx.manager.query(
      `UPDATE campaign_contacts
          SET status = 'PENDING', attempts = 0, incomplete_retries = 0, next_attempt_at = NULL, attempt_deadline_at = NULL, updated_at = now()
        WHERE campaign_id = $1 AND status = ANY($2::text[]) AND ($3::uuid IS NULL OR id = $3)`,
      [campaignId, statuses, contactId ?? null],
    );
    return affected;
  }
}

@Injectable()
export class SqlCampaignPhoneNumberRepository extends CampaignPhoneNumberRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async attach(campaignId: string, phoneNumberId: string): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO campaign_phone_numbers (campaign_id, phone_number_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [campaignId, phoneNumberId],
    );
  }

  async detach(campaignId: string, phoneNumberId: string): Promise<boolean> {
    if (!isUuid(phoneNumberId)) return false;
    const [, affected]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM campaign_phone_numbers WHERE campaign_id = $1 AND phone_number_id = $2`,
      [campaignId, phoneNumberId],
    );
    return affected > 0;
  }

  async listIds(campaignId: string): Promise<string[]> {
    const rows: Array<{ phone_number_id: string }> = await this.tx.manager.query(
      `SELECT phone_number_id FROM campaign_phone_numbers WHERE campaign_id = $1 ORDER BY created_at, phone_number_id`,
      [campaignId],
    );
    return rows.map((r) => r.phone_number_id);
  }
}
