import { Injectable } from '@nestjs/common';
import { StatementParts } from '@outreach/core';
import { isUuid, TransactionHost } from '@outreach/platform';
import {
  API_LEAD_CAMPAIGN_FIELDS,
  API_LEAD_CONTACT_FIELDS,
  ApiLeadCampaign,
  ApiLeadContactInput,
  ApiLeadContactStore,
  ApiLeadContactView,
  NewApiLead,
} from '../application/api-lead-intake.service';
import { PendingTimelineEvent } from '../application/contact-timeline';
import { withIsoDates } from '../application/iso-dates';
import { recipientLocaleOf } from '../domain/recipient-locale';
import { addToContactCount } from './contact-count.sql';
import { CAMPAIGNS as C } from './persistence/campaign.table';
import { CAMPAIGN_CONTACTS as CC } from './persistence/campaign-contact.table';
import { CONTACT_TIMELINE_EVENTS as E } from './persistence/contact-timeline.table';

type Row = Record<string, unknown>;

@Injectable()
export class SqlApiLeadContactStore extends ApiLeadContactStore {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async lockCampaign(workspaceId: string, campaignId: string): Promise<ApiLeadCampaign | null> {
    if (!isUuid(campaignId)) return null;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${C.select(undefined, API_LEAD_CAMPAIGN_FIELDS)} FROM ${C.name} WHERE ${C.c.id} = $1 AND ${C.c.workspaceId} = $2 FOR KEY SHARE`,
      [campaignId, workspaceId],
    );
    return rows[0] ? C.fromRow(rows[0], API_LEAD_CAMPAIGN_FIELDS) : null;
  }

  /**
   * One statement: the insert (skipped when the campaign has the phone), the contact count, and
   * whichever row holds the phone, as the lead push answers it (no second read). The final SELECT
   * reads the statement's snapshot, so it sees the existing row only when the insert did not happen.
   */
  async insertOrFind(
    workspaceId: string,
    campaignId: string,
    c: ApiLeadContactInput,
    createdEvent: PendingTimelineEvent,
  ): Promise<{ id: string; created: boolean; contact: ApiLeadContactView }> {
    const locale = recipientLocaleOf(c.phone);
    const view = CC.select(undefined, API_LEAD_CONTACT_FIELDS);
    const rows: Row[] = await this.tx.manager.query(
      `WITH ins AS (
         INSERT INTO ${CC.name} (${CC.select(undefined, ['campaignId', 'workspaceId', 'phone', 'name', 'fields', 'recipientZone', 'recipientRegion'])})
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)
         ON CONFLICT (${CC.c.campaignId}, ${CC.c.phone}) DO NOTHING
         RETURNING ${view}
       ), counted AS (
         ${addToContactCount('$1', 'SELECT count(*) FROM ins')}
       ), event AS (
         INSERT INTO ${E.name} (${E.select(undefined, ['contactId', 'type', 'occurredAt', 'detail'])})
         SELECT ${CC.c.id}, $8, $9, $10::jsonb FROM ins
       )
       SELECT ${view}, true AS created FROM ins
       UNION ALL
       SELECT ${view}, false AS created FROM ${CC.name}
        WHERE ${CC.c.campaignId} = $1 AND ${CC.c.phone} = $3 AND NOT EXISTS (SELECT 1 FROM ins)`,
      [campaignId, workspaceId, c.phone, c.name, CC.param('fields', c.fields), locale.zone, locale.region, createdEvent.type, createdEvent.at, E.param('detail', createdEvent.detail)],
    );
    if (rows[0]) return this.admitted(rows[0], rows[0].created === true);
    // The insert waited for a concurrent one of the same phone and then skipped: that row
    // committed after this statement's snapshot, so read it with a fresh one.
    const again: Row[] = await this.tx.manager.query(`SELECT ${view} FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 AND ${CC.c.phone} = $2`, [campaignId, c.phone]);
    return this.admitted(again[0], false);
  }

  admitNewInto(parts: StatementParts, lead: NewApiLead, createdEvent: PendingTimelineEvent): string {
    const c = lead.contact;
    const locale = recipientLocaleOf(c.phone);
    // The checks of lockCampaign and openCampaign, under the same share lock; the calling code too,
    // since the phone was normalised with it.
    const campaign = parts.add('lead_campaign', {
      sql: `SELECT ${C.c.id} FROM ${C.name}
             WHERE ${C.c.id} = $1 AND ${C.c.workspaceId} = $2 AND ${C.c.source} = 'API' AND ${C.c.status} = 'RUNNING'
               AND ${C.c.workflowId} IS NULL AND ${C.c.countryCode} IS NOT DISTINCT FROM $3::text
             FOR KEY SHARE`,
      params: [lead.campaignId, lead.workspaceId, lead.countryCode],
    });
    const contact = parts.add('lead_contact', {
      sql: `INSERT INTO ${CC.name} (${CC.select(undefined, ['id', 'campaignId', 'workspaceId', 'phone', 'name', 'fields', 'recipientZone', 'recipientRegion', 'createdAt', 'updatedAt'])})
            SELECT $1, ${C.c.id}, $2, $3, $4, $5::jsonb, $6, $7, $8, $8 FROM ${campaign}
            ON CONFLICT (${CC.c.campaignId}, ${CC.c.phone}) DO NOTHING
            RETURNING ${CC.c.id}`,
      params: [lead.contactId, lead.workspaceId, c.phone, c.name, CC.param('fields', c.fields), locale.zone, locale.region, lead.at],
    });
    parts.add('lead_counted', { sql: addToContactCount('$1', `SELECT count(*) FROM ${contact}`), params: [lead.campaignId] });
    parts.add('lead_event', {
      sql: `INSERT INTO ${E.name} (${E.select(undefined, ['contactId', 'type', 'occurredAt', 'detail'])})
            SELECT ${CC.c.id}, $1, $2, $3::jsonb FROM ${contact}`,
      params: [createdEvent.type, createdEvent.at, E.param('detail', createdEvent.detail)],
    });
    return contact;
  }

  private admitted(row: Row, created: boolean): { id: string; created: boolean; contact: ApiLeadContactView } {
    const contact = withIsoDates(CC.fromRow(row, API_LEAD_CONTACT_FIELDS));
    return { id: contact.id, created, contact };
  }

  async liveCount(campaignId: string): Promise<number> {
    const rows: Array<{ n: number }> = await this.tx.manager.query(
      `SELECT count(*)::int AS n FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 AND ${CC.c.status} IN ('PENDING', 'IN_PROGRESS', 'RETRY_SCHEDULED')`,
      [campaignId],
    );
    return rows[0].n;
  }

  async find(campaignId: string, contactId: string): Promise<ApiLeadContactView | null> {
    if (!isUuid(campaignId) || !isUuid(contactId)) return null;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CC.select(undefined, API_LEAD_CONTACT_FIELDS)} FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 AND ${CC.c.id} = $2`,
      [campaignId, contactId],
    );
    return rows[0] ? withIsoDates(CC.fromRow(rows[0], API_LEAD_CONTACT_FIELDS)) : null;
  }
}
