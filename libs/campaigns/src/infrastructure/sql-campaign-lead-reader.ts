import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { CampaignLeadReader, LeadContact, LeadContactFilter } from '../application/campaign-lead-reader';
import { CAMPAIGN_CONTACTS as CC } from './persistence/campaign-contact.table';

const FIELDS = ['id', 'seq', 'phone', 'name', 'fields', 'status', 'attempts', 'lastOutcome', 'lastAttemptAt', 'connectedPhone', 'createdAt'] as const;

/** Report reads of campaign_contacts: filters become SQL, pages follow the (campaign_id, seq) index. */
@Injectable()
export class SqlCampaignLeadReader extends CampaignLeadReader {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async count(workspaceId: string, campaignId: string, filter: LeadContactFilter): Promise<number> {
    const { where, params } = this.where(workspaceId, campaignId, filter);
    const rows: Array<{ n: number }> = await this.tx.manager.query(`SELECT count(*)::int AS n FROM ${CC.name} WHERE ${where}`, params);
    return rows[0].n;
  }

  async fieldKeys(workspaceId: string, campaignId: string): Promise<string[]> {
    const rows: Array<{ key: string }> = await this.tx.manager.query(
      `SELECT DISTINCT jsonb_object_keys(${CC.c.fields}) AS key FROM ${CC.name} WHERE ${CC.c.campaignId} = $1 AND ${CC.c.workspaceId} = $2 ORDER BY 1`,
      [campaignId, workspaceId],
    );
    return rows.map((r) => r.key);
  }

  async page(workspaceId: string, campaignId: string, filter: LeadContactFilter, afterSeq: number, limit: number): Promise<LeadContact[]> {
    const { where, params } = this.where(workspaceId, campaignId, filter);
    params.push(afterSeq, limit);
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${CC.select(undefined, FIELDS)} FROM ${CC.name}
        WHERE ${where} AND ${CC.c.seq} > $${params.length - 1}
        ORDER BY ${CC.c.seq} LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => CC.fromRow(row, FIELDS));
  }

  private where(workspaceId: string, campaignId: string, filter: LeadContactFilter): { where: string; params: unknown[] } {
    const params: unknown[] = [campaignId, workspaceId];
    const parts = [`${CC.c.campaignId} = $1`, `${CC.c.workspaceId} = $2`];
    const activity = `coalesce(${CC.c.lastAttemptAt}, ${CC.c.createdAt})`;
    if (filter.statuses) {
      params.push([...filter.statuses]);
      parts.push(`${CC.c.status} = ANY($${params.length}::text[])`);
    }
    if (filter.outcomes) {
      params.push([...filter.outcomes]);
      parts.push(`${CC.c.lastOutcome} = ANY($${params.length}::text[])`);
    }
    if (filter.activityFrom) {
      params.push(filter.activityFrom);
      parts.push(`${activity} >= $${params.length}`);
    }
    if (filter.activityTo) {
      params.push(filter.activityTo);
      parts.push(`${activity} < $${params.length}`);
    }
    return { where: parts.join(' AND '), params };
  }
}
