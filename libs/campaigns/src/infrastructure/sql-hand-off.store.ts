import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { HandOffStore, ReplyCandidate } from '../application/contact-hand-offs.service';
import { CampaignChannel } from '../domain/campaign-kinds';
import { ContactStatus } from '../domain/contact-state-machine';
import { CAMPAIGNS } from './persistence/campaign.table';
import { CAMPAIGN_CONTACTS as CC } from './persistence/campaign-contact.table';
import { withDefaultSettings } from '../domain/campaign-settings';

type Row = Record<string, unknown>;
const C = CAMPAIGNS;

/** The hand-off's reads and its one transition (the caller holds the transaction). */
@Injectable()
export class SqlHandOffStore extends HandOffStore {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async candidates(workspaceId: string, phone: string, channels: readonly CampaignChannel[]): Promise<ReplyCandidate[]> {
    const rows: Row[] = await this.tx.manager.query(
      // From the workspace's campaigns with rules (few) to their contact with this phone: the
      // (campaign_id, phone) unique index, never a scan of the workspace's contacts.
      `SELECT cc.${CC.c.id} AS contact_id, c.${C.c.id} AS campaign_id, c.${C.c.status} AS campaign_status, c.${C.c.channel} AS channel,
              c.${C.c.source} AS source, cc.${CC.c.status} AS contact_status, c.${C.c.settings} AS settings
         FROM ${C.name} c JOIN ${CC.name} cc ON cc.${CC.c.campaignId} = c.${C.c.id} AND cc.${CC.c.phone} = $2
        WHERE c.${C.c.workspaceId} = $1
          AND c.${C.c.channel} = ANY($3::text[]) AND c.${C.c.status} NOT IN ('DRAFT', 'CANCELED')
          AND jsonb_array_length(COALESCE(c.${C.c.settings} -> 'outreachRules', '[]'::jsonb)) > 0
        ORDER BY c.${C.c.createdAt} DESC`,
      [workspaceId, phone, channels],
    );
    return rows.map((row) => ({
      contactId: row.contact_id as string,
      campaignId: row.campaign_id as string,
      campaignStatus: row.campaign_status as ReplyCandidate['campaignStatus'],
      channel: row.channel as CampaignChannel,
      source: row.source as ReplyCandidate['source'],
      contactStatus: row.contact_status as ContactStatus,
      outreachRules: withDefaultSettings(row.settings as object).outreachRules,
    }));
  }

  async phonesWithCandidates(workspaceId: string, phones: readonly string[], channels: readonly CampaignChannel[]): Promise<Set<string>> {
    if (phones.length === 0) return new Set();
    const rows: Array<{ phone: string }> = await this.tx.manager.query(
      // The same campaigns as `candidates`, then each one's contacts among the phones (the unique index).
      `SELECT DISTINCT cc.${CC.c.phone} AS phone
         FROM ${C.name} c JOIN ${CC.name} cc ON cc.${CC.c.campaignId} = c.${C.c.id} AND cc.${CC.c.phone} = ANY($2::text[])
        WHERE c.${C.c.workspaceId} = $1
          AND c.${C.c.channel} = ANY($3::text[]) AND c.${C.c.status} NOT IN ('DRAFT', 'CANCELED')
          AND jsonb_array_length(COALESCE(c.${C.c.settings} -> 'outreachRules', '[]'::jsonb)) > 0`,
      [workspaceId, phones, channels],
    );
    return new Set(rows.map((row) => row.phone));
  }

  async lockStatus(contactId: string): Promise<ContactStatus | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${CC.c.status} AS status FROM ${CC.name} WHERE ${CC.c.id} = $1 FOR UPDATE`, [contactId]);
    return rows.length === 0 ? null : (rows[0].status as ContactStatus);
  }

  async handOff(contactId: string, from: readonly ContactStatus[], to: ContactStatus): Promise<boolean> {
    const rows: Row[] = await this.tx.manager.query(
      `UPDATE ${CC.name} SET ${CC.c.status} = $2, ${CC.c.lastOutcome} = 'hand_off', ${CC.c.nextAttemptAt} = NULL, ${CC.c.updatedAt} = now()
        WHERE ${CC.c.id} = $1 AND ${CC.c.status} = ANY($3::text[]) RETURNING ${CC.c.id}`,
      [contactId, to, from],
    );
    return rows.length > 0;
  }
}
