import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { InboundCaller, InboundCampaignStore, InboundRoute } from '../application/inbound-campaigns';
import { allowedFrom, targetOf } from '../domain/contact-state-machine';
import { CAMPAIGNS as C } from './persistence/campaign.table';
import { CAMPAIGN_CONTACTS as CC } from './persistence/campaign-contact.table';
import { CAMPAIGN_PHONE_NUMBERS as PN } from './persistence/campaign-phone-number.table';

type Row = Record<string, unknown>;

/** Started and not finished: the statuses in which an INBOUND campaign holds its numbers (decisions.md 36.2). */
const LIVE = ['RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED'];

@Injectable()
export class SqlInboundCampaignStore extends InboundCampaignStore {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async liveCampaignsOn(numberIds: readonly string[], exceptCampaignId: string): Promise<Array<{ numberId: string; campaignId: string }>> {
    const ids = numberIds.filter(isUuid);
    if (ids.length === 0) return [];
    const rows: Row[] = await this.tx.manager.query(
      `SELECT pn.${PN.c.phoneNumberId} AS number_id, c.${C.c.id} AS campaign_id
         FROM ${PN.name} pn JOIN ${C.name} c ON c.${C.c.id} = pn.${PN.c.campaignId}
        WHERE pn.${PN.c.phoneNumberId} = ANY($1::uuid[]) AND c.${C.c.source} = 'INBOUND'
          AND c.${C.c.status} = ANY($2::text[]) AND c.${C.c.id} <> $3
        ORDER BY c.${C.c.createdAt}`,
      [ids, LIVE, exceptCampaignId],
    );
    return rows.map((r) => ({ numberId: r.number_id as string, campaignId: r.campaign_id as string }));
  }

  async lockRunningCampaignOn(numberId: string): Promise<InboundRoute | null> {
    if (!isUuid(numberId)) return null;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT c.${C.c.id} AS id, c.${C.c.workspaceId} AS workspace_id, c.${C.c.agentId} AS agent_id
         FROM ${C.name} c JOIN ${PN.name} pn ON pn.${PN.c.campaignId} = c.${C.c.id}
        WHERE pn.${PN.c.phoneNumberId} = $1 AND c.${C.c.source} = 'INBOUND' AND c.${C.c.status} = 'RUNNING'
        ORDER BY c.${C.c.startedAt} LIMIT 1
        FOR KEY SHARE OF c`,
      [numberId],
    );
    const row = rows[0];
    return row ? { campaignId: row.id as string, workspaceId: row.workspace_id as string, agentId: (row.agent_id as string | null) ?? null } : null;
  }

  async answer(input: { campaignId: string; contactId: string; callId: string; now: Date; deadlineAt: Date }): Promise<{ attemptSeq: number; attempts: number } | null> {
    // An UPDATE … RETURNING answers [rows, affected] through TypeORM's postgres driver.
    const [rows]: [Row[], number] = await this.tx.manager.query(
      `UPDATE ${CC.name}
          SET ${CC.c.status} = $3, ${CC.c.attempts} = ${CC.c.attempts} + 1, ${CC.c.attemptSeq} = ${CC.c.attemptSeq} + 1,
              ${CC.c.attemptStartedAt} = $4, ${CC.c.attemptDeadlineAt} = $5, ${CC.c.currentCallId} = $6,
              ${CC.c.nextAttemptAt} = NULL, ${CC.c.incompleteRetries} = 0, ${CC.c.updatedAt} = now()
        WHERE ${CC.c.id} = $1 AND ${CC.c.campaignId} = $2 AND ${CC.c.status} = ANY($7::text[])
        RETURNING ${CC.c.attemptSeq} AS attempt_seq, ${CC.c.attempts} AS attempts`,
      [input.contactId, input.campaignId, targetOf('answerInbound'), input.now, input.deadlineAt, input.callId, allowedFrom('answerInbound')],
    );
    const row = rows[0];
    return row ? { attemptSeq: Number(row.attempt_seq), attempts: Number(row.attempts) } : null;
  }

  async countReceivedCall(campaignId: string): Promise<void> {
    await this.tx.manager.query(`UPDATE ${C.name} SET received_calls = received_calls + 1 WHERE ${C.c.id} = $1`, [campaignId]);
  }

  async findCaller(contactId: string): Promise<InboundCaller | null> {
    if (!isUuid(contactId)) return null;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CC.select('cc', ['id', 'campaignId', 'workspaceId', 'phone', 'name', 'fields'])}
         FROM ${CC.name} cc JOIN ${C.name} c ON c.${C.c.id} = cc.${CC.c.campaignId}
        WHERE cc.${CC.c.id} = $1 AND c.${C.c.source} = 'INBOUND'`,
      [contactId],
    );
    if (!rows[0]) return null;
    const c = CC.fromRow(rows[0], ['id', 'campaignId', 'workspaceId', 'phone', 'name', 'fields']);
    return { contactId: c.id, campaignId: c.campaignId, workspaceId: c.workspaceId, phone: c.phone, name: c.name, fields: c.fields };
  }
}
