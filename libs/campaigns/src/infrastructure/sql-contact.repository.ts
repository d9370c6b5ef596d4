import { Injectable } from '@nestjs/common';
import { Clock } from '@outreach/core';
import { isUuid, TransactionHost } from '@outreach/platform';
import {
  CampaignPhoneNumberRepository,
  CONTACT_VIEW_FIELDS,
  ContactRepository,
  ContactView,
  NewContact,
  StagedContact,
  StagedUpload,
} from '../application/campaigns.ports';
import { withIsoDates } from '../application/iso-dates';
import { recipientLocaleOf } from '../domain/recipient-locale';
import { ContactSelection } from '../domain/reengage-segments';
import { allowedFrom, ContactEvent, ContactStatus, targetOf } from '../domain/contact-state-machine';
import { addToContactCount } from './contact-count.sql';
import { CAMPAIGNS as C } from './persistence/campaign.table';
import { CAMPAIGN_CONTACTS as CC } from './persistence/campaign-contact.table';
import { CONTACT_TIMELINE_EVENTS as TE } from './persistence/contact-timeline.table';
import { CAMPAIGN_PHONE_NUMBERS as PN } from './persistence/campaign-phone-number.table';
import { UPLOAD_ROWS as UR } from './persistence/upload-row.table';
import { arrayLiteral, copyIntoTable, copyText } from './pg-copy';

/** The import's staging table: a temporary table of the transaction, dropped at its end (decisions.md 43). */
const STAGE = 'contact_import_stage';

type Row = Record<string, unknown>;

const toView = (row: Row): ContactView => withIsoDates(CC.fromRow(row, CONTACT_VIEW_FIELDS));

/** What every fresh run of a contact clears besides its status and attempts (restart, retry, re-engage). */
const FRESH_RUN = [
  `${CC.c.phoneIndex} = 0`,
  `${CC.c.phoneFirstAttempt} = 0`,
  `${CC.c.connectedPhone} = NULL`,
  `${CC.c.followups} = 0`,
  `${CC.c.churnRounds} = 0`,
  // The message legs start over too (decisions.md 33).
  `${CC.c.leg} = NULL`,
  `${CC.c.messageSends} = 0`,
  `${CC.c.messageTransient} = 0`,
  `${CC.c.messageLegAt} = NULL`,
  `${CC.c.messageOutcome} = NULL`,
  `${CC.c.followupCallId} = NULL`,
  `${CC.c.attemptDeadlineAt} = NULL`,
].join(', ');

@Injectable()
export class SqlContactRepository extends ContactRepository {
  constructor(
    private readonly tx: TransactionHost,
    private readonly clock: Clock,
  ) {
    super();
  }

  /**
   * One statement per batch: the rows travel as parallel arrays and unnest into an INSERT that
   * skips phones the campaign already has. The campaign's contact count and each new contact's
   * `created` timeline event (decisions.md 29.3) are written by the same statement.
   */
  async insertMany(workspaceId: string, campaignId: string, contacts: readonly NewContact[]): Promise<number> {
    if (contacts.length === 0) return 0;
    // The recipient's zone and holiday region, derived once here from the primary number (decisions.md 28.2).
    const locales = contacts.map((c) => recipientLocaleOf(c.phone));
    const rows: Array<{ inserted: number }> = await this.tx.manager.query(
      `WITH input AS (
         SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::jsonb[], $7::text[], $8::text[], $10::int[], $11::uuid[])
           WITH ORDINALITY AS t(phone, alt, name, fields, zone, region, depth, referred_by, ord)
       ), inserted AS (
         INSERT INTO ${CC.name} (${CC.select(undefined, ['campaignId', 'workspaceId', 'phone', 'altPhones', 'name', 'fields', 'recipientZone', 'recipientRegion', 'referralDepth', 'referredBy'])})
         SELECT $1, $2, phone, CASE WHEN alt = '' THEN '{}'::text[] ELSE string_to_array(alt, ' ') END, name, fields, zone, region, depth, referred_by
           FROM input ORDER BY ord
         ON CONFLICT (${CC.c.campaignId}, ${CC.c.phone}) DO NOTHING
         RETURNING ${CC.c.id}
       ), counted AS (
         ${addToContactCount('$1', 'SELECT count(*) FROM inserted')}
       ), created AS (
         INSERT INTO ${TE.name} (${TE.c.contactId}, ${TE.c.type}, ${TE.c.occurredAt}, ${TE.c.detail})
         SELECT ${CC.c.id}, 'created', $9, jsonb_build_object('source', (SELECT ${C.c.source} FROM ${C.name} WHERE ${C.c.id} = $1))
           FROM inserted
       )
       SELECT count(*)::int AS inserted FROM inserted`,
      [
        campaignId,
        workspaceId,
        contacts.map((c) => c.phone),
        contacts.map((c) => c.altPhones.join(' ')),
        contacts.map((c) => c.name),
        contacts.map((c) => JSON.stringify(c.fields)),
        locales.map((l) => l.zone),
        locales.map((l) => l.region),
        this.clock.now(),
        contacts.map((c) => c.referral?.depth ?? 0),
        contacts.map((c) => c.referral?.referredBy ?? null),
      ],
    );
    return rows[0].inserted;
  }

  async stage(rows: readonly StagedContact[]): Promise<void> {
    if (rows.length === 0) return;
    await this.tx.manager.query(
      `CREATE TEMPORARY TABLE IF NOT EXISTS ${STAGE} (row_no integer NOT NULL, phone text NOT NULL, alt_phones text[] NOT NULL, zone text, region text) ON COMMIT DROP`,
    );
    await copyIntoTable(
      this.tx,
      `COPY ${STAGE} (row_no, phone, alt_phones, zone, region) FROM STDIN`,
      rows.map((r) => {
        // The recipient's zone and holiday region, derived once here from the primary number (decisions.md 28.2).
        const locale = recipientLocaleOf(r.phone);
        return `${r.rowNo}\t${copyText(r.phone)}\t${copyText(arrayLiteral(r.altPhones))}\t${copyText(locale.zone)}\t${copyText(locale.region)}\n`;
      }),
    );
  }

  /**
   * One statement: the first staged row of each phone (DISTINCT ON, lowest row number), joined to
   * its upload row for the name and the fields (jsonb_object of the other columns), inserted in row
   * order skipping phones the campaign has; the contact count and each new contact's `created`
   * timeline event come with it, as in insertMany.
   */
  async insertStaged(workspaceId: string, campaignId: string, source: StagedUpload): Promise<number> {
    const exists: unknown[] = await this.tx.manager.query(`SELECT 1 FROM pg_class WHERE oid = to_regclass($1)`, [STAGE]);
    if (exists.length === 0) return 0;
    const p = source.phone + 1; // Postgres arrays count from 1
    // The sorts (repeats, row order) fit in memory rather than spilling to disk; ends with the transaction.
    await this.tx.manager.query(`SET LOCAL work_mem = '32MB'`);
    const rows: Array<{ inserted: number }> = await this.tx.manager.query(
      `WITH picked AS (
         SELECT DISTINCT ON (s.phone) s.row_no, s.phone, s.alt_phones, s.zone, s.region FROM ${STAGE} s ORDER BY s.phone, s.row_no
       ), inserted AS (
         INSERT INTO ${CC.name} (${CC.select(undefined, ['campaignId', 'workspaceId', 'phone', 'altPhones', 'name', 'fields', 'recipientZone', 'recipientRegion', 'referralDepth', 'referredBy'])})
         SELECT $1, $2, k.phone, k.alt_phones, NULLIF(r.${UR.c.cells}[$5], ''),
                jsonb_object($4::text[], r.${UR.c.cells}[1:${p - 1}] || r.${UR.c.cells}[${p + 1}:]), k.zone, k.region, 0, NULL
           FROM picked k JOIN ${UR.name} r ON r.${UR.c.uploadId} = $3 AND r.${UR.c.rowNo} = k.row_no
          ORDER BY k.row_no
         ON CONFLICT (${CC.c.campaignId}, ${CC.c.phone}) DO NOTHING
         RETURNING ${CC.c.id}
       ), counted AS (
         ${addToContactCount('$1', 'SELECT count(*) FROM inserted')}
       ), created AS (
         INSERT INTO ${TE.name} (${TE.c.contactId}, ${TE.c.type}, ${TE.c.occurredAt}, ${TE.c.detail})
         SELECT ${CC.c.id}, 'created', $6, jsonb_build_object('source', (SELECT ${C.c.source} FROM ${C.name} WHERE ${C.c.id} = $1))
           FROM inserted
       )
       SELECT count(*)::int AS inserted FROM inserted`,
      [campaignId, workspaceId, source.uploadId, source.columns.filter((_, i) => i !== source.phone), source.name >= 0 ? source.name + 1 : 0, this.clock.now()],
    );
    await this.tx.manager.query(`TRUNCATE ${STAGE}`);
    return rows[0].inserted;
  }

  async count(campaignId: string, statuses?: readonly ContactStatus[]): Promise<number> {
    const rows: Array<{ n: number }> = await this.tx.manager.query(
      `SELECT count(*)::int AS n FROM ${CC.name} WHERE ${CC.c.campaignId} = $1${statuses ? ` AND ${CC.c.status} = ANY($2::text[])` : ''}`,
      statuses ? [campaignId, statuses] : [campaignId],
    );
    return rows[0].n;
  }

  async hasAny(campaignId: string): Promise<boolean> {
    const rows: unknown[] = await this.tx.manager.query(`SELECT 1 FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 LIMIT 1`, [campaignId]);
    return rows.length > 0;
  }

  async list(
    campaignId: string,
    query: { offset: number; limit: number; status?: ContactStatus },
  ): Promise<{ items: ContactView[]; total: number }> {
    const filter = query.status ? `AND ${CC.c.status} = $2` : `AND $2::text IS NULL`;
    const params = [campaignId, query.status ?? null];
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CC.select(undefined, CONTACT_VIEW_FIELDS)} FROM ${CC.name}
        WHERE ${CC.c.campaignId} = $1 ${filter} ORDER BY ${CC.c.seq} LIMIT $3 OFFSET $4`,
      [...params, query.limit, query.offset],
    );
    const [{ total }]: Array<{ total: number }> = await this.tx.manager.query(
      `SELECT count(*)::int AS total FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 ${filter}`,
      params,
    );
    return { items: rows.map(toView), total };
  }

  async findById(campaignId: string, contactId: string): Promise<ContactView | null> {
    if (!isUuid(contactId)) return null;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CC.select(undefined, CONTACT_VIEW_FIELDS)} FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 AND ${CC.c.id} = $2`,
      [campaignId, contactId],
    );
    return rows[0] ? toView(rows[0]) : null;
  }

  async reset(campaignId: string, event: Extract<ContactEvent, 'retry' | 'restart'>, contactId?: string): Promise<number> {
    const [, affected]: [unknown[], number] = await this.tx.manager.query(
      `UPDATE ${CC.name}
          SET ${CC.c.status} = $4, ${CC.c.attempts} = 0, ${CC.c.incompleteRetries} = 0, ${CC.c.nextAttemptAt} = NULL,
              ${FRESH_RUN}, ${CC.c.updatedAt} = now()
        WHERE ${CC.c.campaignId} = $1 AND ${CC.c.status} = ANY($2::text[]) AND ($3::uuid IS NULL OR ${CC.c.id} = $3)`,
      [campaignId, allowedFrom(event), contactId ?? null, targetOf(event)],
    );
    return affected;
  }

  async reengage(campaignId: string, segment: ContactSelection): Promise<number> {
    const statuses = allowedFrom('reengage').filter((s) => segment.statuses.includes(s));
    const [, affected]: [unknown[], number] = await this.tx.manager.query(
      `UPDATE ${CC.name}
          SET ${CC.c.status} = $2, ${CC.c.attempts} = 0, ${CC.c.incompleteRetries} = 0, ${CC.c.nextAttemptAt} = NULL,
              ${FRESH_RUN}, ${CC.c.updatedAt} = now()
        WHERE ${CC.c.campaignId} = $1 AND ${CC.c.status} = ANY($3::text[])
          AND ($4::text[] IS NULL OR ${CC.c.lastOutcome} = ANY($4::text[]))
          AND ($5::int IS NULL OR ${CC.c.lastTalkMs} < $5)`,
      [campaignId, targetOf('reengage'), statuses, segment.lastOutcomes, segment.talkedLessThanMs],
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
      `INSERT INTO ${PN.name} (${PN.select(undefined, ['campaignId', 'phoneNumberId'])}) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [campaignId, phoneNumberId],
    );
  }

  async detach(campaignId: string, phoneNumberId: string): Promise<boolean> {
    if (!isUuid(phoneNumberId)) return false;
    const [, affected]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM ${PN.name} WHERE ${PN.c.campaignId} = $1 AND ${PN.c.phoneNumberId} = $2`,
      [campaignId, phoneNumberId],
    );
    return affected > 0;
  }

  async listIds(campaignId: string): Promise<string[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${PN.c.phoneNumberId} FROM ${PN.name} WHERE ${PN.c.campaignId} = $1 ORDER BY ${PN.c.createdAt}, ${PN.c.phoneNumberId}`,
      [campaignId],
    );
    return rows.map((row) => PN.fromRow(row, ['phoneNumberId']).phoneNumberId);
  }
}
