import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { JourneyContact, JourneyContacts } from '../application/journey-contacts';
import { allowedFrom, targetOf } from '../domain/contact-state-machine';
import { CAMPAIGNS as C } from './persistence/campaign.table';
import { CAMPAIGN_CONTACTS as CC } from './persistence/campaign-contact.table';

type Row = Record<string, unknown>;

const SELECTED = `cc.${CC.c.id} AS id, cc.${CC.c.campaignId} AS campaign_id, cc.${CC.c.workspaceId} AS workspace_id, cc.${CC.c.phone} AS phone,
  cc.${CC.c.name} AS name, cc.${CC.c.fields} AS fields, cc.${CC.c.status} AS status`;

type CampaignFacts = { source: string; timezone: string; workflowId: string | null };

function contactOf(row: Row, campaign: CampaignFacts): JourneyContact {
  return {
    id: row.id as string,
    campaignId: row.campaign_id as string,
    workspaceId: row.workspace_id as string,
    phone: row.phone as string,
    name: (row.name as string | null) ?? null,
    fields: (row.fields as Record<string, string>) ?? {},
    status: row.status as JourneyContact['status'],
    source: campaign.source,
    timezone: campaign.timezone,
    workflowId: campaign.workflowId,
  };
}

function factsOf(row: Row): CampaignFacts {
  return { source: row.source as string, timezone: row.timezone as string, workflowId: (row.workflow_id as string | null) ?? null };
}

/** decisions.md 37.12: the journey states of campaign_contacts, through the contact transition table. */
@Injectable()
export class SqlJourneyContacts extends JourneyContacts {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async admit(campaignId: string, limit: number): Promise<JourneyContact[]> {
    const campaign = await this.campaign(campaignId);
    if (!campaign || limit <= 0) return [];
    // An UPDATE … RETURNING answers [rows, affected] through TypeORM.
    const [rows]: [Row[], number] = await this.tx.manager.query(
      `UPDATE ${CC.name} cc SET ${CC.c.status} = $3, ${CC.c.nextAttemptAt} = NULL, ${CC.c.leg} = NULL, ${CC.c.updatedAt} = now()
        WHERE cc.${CC.c.id} IN (
          SELECT ${CC.c.id} FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 AND ${CC.c.status} = ANY($4::text[])
           ORDER BY ${CC.c.seq} LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING ${SELECTED}`,
      [campaignId, limit, targetOf('journeyPark'), allowedFrom('journeyPark')],
    );
    return rows.map((row) => contactOf(row, campaign));
  }

  async callDue(contactId: string, now: Date): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.tx.manager.query(
      `UPDATE ${CC.name} SET ${CC.c.leg} = 'VOICE', ${CC.c.nextAttemptAt} = $2, ${CC.c.updatedAt} = now()
        WHERE ${CC.c.id} = $1 AND ${CC.c.status} = $3`,
      [contactId, now, targetOf('journeyPark')],
    );
    return affected === 1;
  }

  async end(contactId: string, outcome: 'COMPLETED' | 'FAILED', lastOutcome: string | null, now: Date): Promise<boolean> {
    const event = outcome === 'COMPLETED' ? 'journeyEnd' : 'journeyFail';
    const [, affected]: [unknown, number] = await this.tx.manager.query(
      `UPDATE ${CC.name} SET ${CC.c.status} = $2, ${CC.c.nextAttemptAt} = NULL, ${CC.c.leg} = NULL, ${CC.c.lastOutcome} = COALESCE($3, ${CC.c.lastOutcome}), ${CC.c.updatedAt} = $4
        WHERE ${CC.c.id} = $1 AND ${CC.c.status} = ANY($5::text[])`,
      [contactId, targetOf(event), lastOutcome, now, allowedFrom(event)],
    );
    return affected === 1;
  }

  async find(contactId: string): Promise<JourneyContact | null> {
    if (!isUuid(contactId)) return null;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${SELECTED}, c.${C.c.source} AS source, c.${C.c.timezone} AS timezone, c.${C.c.workflowId} AS workflow_id FROM ${CC.name} cc
         JOIN ${C.name} c ON c.${C.c.id} = cc.${CC.c.campaignId} WHERE cc.${CC.c.id} = $1`,
      [contactId],
    );
    return rows[0] ? contactOf(rows[0], factsOf(rows[0])) : null;
  }

  private async campaign(campaignId: string): Promise<CampaignFacts | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${C.c.source} AS source, ${C.c.timezone} AS timezone, ${C.c.workflowId} AS workflow_id FROM ${C.name} WHERE ${C.c.id} = $1`,
      [campaignId],
    );
    return rows[0] ? factsOf(rows[0]) : null;
  }
}
