import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { CampaignTypeRepository } from '../application/campaigns.ports';
import { CampaignType } from '../domain/campaign-type.aggregate';
import { PLATFORM_CAMPAIGN_TYPES } from '../domain/platform-campaign-types';
import { CAMPAIGN_TYPES as T } from './persistence/campaign-type.table';

const toDomain = (row: Record<string, unknown>): CampaignType => CampaignType.restore(T.fromRow(row));
const SELECT = `SELECT ${T.select()} FROM ${T.name}`;

const PLATFORM = new Map(PLATFORM_CAMPAIGN_TYPES.map((t) => [t.id, t]));

/** Workspace types live in campaign_types; platform types come from code and are merged in here. */
@Injectable()
export class SqlCampaignTypeRepository extends CampaignTypeRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(type: CampaignType): Promise<void> {
    const { sql, params } = T.insert(type.toProps());
    await this.translate(() => this.tx.manager.query(sql, params));
  }

  async update(type: CampaignType): Promise<void> {
    const { sql, params } = T.update(type.toProps(), ['id']);
    await this.translate(() => this.tx.manager.query(sql, params));
  }

  async findById(id: string): Promise<CampaignType | null> {
    const platform = PLATFORM.get(id);
    if (platform) return CampaignType.restore(platform);
    if (!isUuid(id)) return null;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(`${SELECT} WHERE ${T.c.id} = $1`, [id]);
    return rows[0] ? toDomain(rows[0]) : null;
  }

  async findManyByIds(ids: readonly string[]): Promise<CampaignType[]> {
    const platform = ids.flatMap((id) => (PLATFORM.has(id) ? [CampaignType.restore(PLATFORM.get(id)!)] : []));
    const stored = ids.filter((id) => !PLATFORM.has(id) && isUuid(id));
    if (stored.length === 0) return platform;
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(`${SELECT} WHERE ${T.c.id} = ANY($1::uuid[])`, [stored]);
    return [...platform, ...rows.map(toDomain)];
  }

  async listVisible(workspaceId: string): Promise<CampaignType[]> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `${SELECT} WHERE ${T.c.workspaceId} = $1 AND ${T.c.status} = 'ACTIVE' ORDER BY ${T.c.createdAt}, ${T.c.id}`,
      [workspaceId],
    );
    return [...rows.map(toDomain), ...PLATFORM_CAMPAIGN_TYPES.map((t) => CampaignType.restore(t))];
  }

  private async translate(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (isUniqueViolation(error, 'campaign_types_workspace_name_key')) {
        throw new AppError('name_taken', { message: 'a campaign type with this name exists in the workspace' });
      }
      throw error;
    }
  }
}
