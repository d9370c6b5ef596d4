import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { CampaignRepository, CampaignStats } from '../application/campaigns.ports';
import { Campaign } from '../domain/campaign.aggregate';
import { CONTACT_COUNT_OF_C } from './contact-count.sql';
import { CAMPAIGN_PROPS, CAMPAIGNS as C } from './persistence/campaign.table';

const SELECT = `SELECT ${C.select(undefined, CAMPAIGN_PROPS)} FROM ${C.name}`;
/** Everything but the key: an update saves the whole aggregate (receivedCalls is not the aggregate's). */
const UPDATED = CAMPAIGN_PROPS.filter((key) => key !== 'id');

const restore = (row: Record<string, unknown>): Campaign => Campaign.restore(C.fromRow(row, CAMPAIGN_PROPS));
/** The aggregate as a row; receivedCalls starts at 0 and is never written by an update. */
const recordOf = (campaign: Campaign) => ({ ...campaign.toProps(), receivedCalls: 0 });

/** Advisory-lock namespace for "reservations of one workspace" (any fixed 32-bit number). */
export const RESERVATION_LOCK_NAMESPACE = 727_400_210;

@Injectable()
export class SqlCampaignRepository extends CampaignRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(campaign: Campaign): Promise<void> {
    const { sql, params } = C.insert(recordOf(campaign));
    await this.translate(() => this.tx.manager.query(sql, params));
  }

  async update(campaign: Campaign): Promise<void> {
    const { sql, params } = C.update(recordOf(campaign), ['id'], UPDATED);
    await this.translate(() => this.tx.manager.query(sql, params));
  }

  async findById(workspaceId: string, id: string): Promise<Campaign | null> {
    if (!isUuid(id)) return null;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(`${SELECT} WHERE ${C.c.id} = $1 AND ${C.c.workspaceId} = $2`, [
      id,
      workspaceId,
    ]);
    return rows[0] ? restore(rows[0]) : null;
  }

  async findByIdForUpdate(workspaceId: string, id: string): Promise<Campaign | null> {
    if (!isUuid(id)) return null;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `${SELECT} WHERE ${C.c.id} = $1 AND ${C.c.workspaceId} = $2 FOR UPDATE`,
      [id, workspaceId],
    );
    return rows[0] ? restore(rows[0]) : null;
  }

  async findRunningForCrmConnection(workspaceId: string, connectionId: string): Promise<Campaign | null> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `${SELECT} WHERE ${C.c.workspaceId} = $1 AND ${C.c.defaultCrmConnectionId} = $2 AND ${C.c.source} = 'CRM_WEBHOOK' AND ${C.c.status} = 'RUNNING'
        ORDER BY ${C.c.createdAt}, ${C.c.id} LIMIT 1 FOR KEY SHARE`,
      [workspaceId, connectionId],
    );
    return rows[0] ? restore(rows[0]) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<Campaign[]> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `${SELECT} WHERE ${C.c.workspaceId} = $1 ORDER BY ${C.c.createdAt} DESC, ${C.c.id} DESC`,
      [workspaceId],
    );
    return rows.map(restore);
  }

  async stats(ids: readonly string[]): Promise<Map<string, CampaignStats>> {
    if (ids.length === 0) return new Map();
    const rows: Array<Record<string, unknown> & { contact_count: number }> = await this.tx.manager.query(
      `SELECT ${C.select('c', ['id', 'receivedCalls'])}, ${CONTACT_COUNT_OF_C} AS contact_count
         FROM ${C.name} c WHERE c.${C.c.id} = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(
      rows.map((row) => {
        const { id, receivedCalls } = C.fromRow(row, ['id', 'receivedCalls']);
        return [id, { contactCount: row.contact_count, receivedCalls }];
      }),
    );
  }

  async delete(id: string): Promise<void> {
    await this.tx.manager.query(`DELETE FROM ${C.name} WHERE ${C.c.id} = $1`, [id]);
  }

  async lockAndSumRunningReservations(workspaceId: string, exceptId: string): Promise<number> {
    await this.tx.manager.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [RESERVATION_LOCK_NAMESPACE, workspaceId]);
    const rows: Array<{ total: string }> = await this.tx.manager.query(
      `SELECT COALESCE(SUM(${C.c.reservedConcurrency}), 0) AS total FROM ${C.name}
        WHERE ${C.c.workspaceId} = $1 AND ${C.c.status} = 'RUNNING' AND ${C.c.id} <> $2`,
      [workspaceId, exceptId],
    );
    return Number(rows[0].total);
  }

  async referencesAgent(workspaceId: string, agentId: string): Promise<boolean> {
    if (!isUuid(agentId)) return false;
    const rows: unknown[] = await this.tx.manager.query(
      `SELECT 1 FROM ${C.name} WHERE ${C.c.workspaceId} = $1 AND ${C.c.agentId} = $2 LIMIT 1`,
      [workspaceId, agentId],
    );
    return rows.length > 0;
  }

  private async translate(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (isUniqueViolation(error, 'campaigns_workspace_name_key')) {
        throw new AppError('name_taken', { message: 'a campaign with this name exists in the workspace' });
      }
      throw error;
    }
  }
}
