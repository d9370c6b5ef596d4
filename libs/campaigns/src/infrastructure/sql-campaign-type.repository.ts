import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { CampaignTypeRepository } from '../application/campaigns.ports';
import { CampaignType, CampaignTypeStatus } from '../domain/campaign-type.aggregate';
import { ExtractionKey } from '../domain/extraction-keys';
import { PLATFORM_CAMPAIGN_TYPES } from '../domain/platform-campaign-types';

type Row = {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  extraction_keys: ExtractionKey[];
  status: string;
  created_at: Date;
  updated_at: Date;
};

function toDomain(r: Row): CampaignType {
  return CampaignType.restore({
    id: r.id,
    workspaceId: r.workspace_id,
    name: r.name,
    description: r.description,
    extractionKeys: r.extraction_keys,
    status: r.status as CampaignTypeStatus,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });
}

const PLATFORM = new Map(PLATFORM_CAMPAIGN_TYPES.map((t) => [t.id, t]));

/** Workspace types live in campaign_types; platform types come from code and are merged in here. */
@Injectable()
export class SqlCampaignTypeRepository extends CampaignTypeRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(type: CampaignType): Promise<void> {
    const p = type.toProps();
    await this.translate(() =>
      this.tx.manager.query(
        `INSERT INTO campaign_types (id, workspace_id, name, description, extraction_keys, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [p.id, p.workspaceId, p.name, p.description, JSON.stringify(p.extractionKeys), p.status, p.createdAt, p.updatedAt],
      ),
    );
  }

  async update(type: CampaignType): Promise<void> {
    const p = type.toProps();
    await this.translate(() =>
      this.tx.manager.query(
        `UPDATE campaign_types SET name = $2, description = $3, extraction_keys = $4, status = $5, updated_at = $6 WHERE id = $1`,
        [p.id, p.name, p.description, JSON.stringify(p.extractionKeys), p.status, p.updatedAt],
      ),
    );
  }

  async findById(id: string): Promise<CampaignType | null> {
    const platform = PLATFORM.get(id);
    if (platform) return CampaignType.restore(platform);
    if (!isUuid(id)) return null;
    const rows: Row[] = await this.tx.manager.query(`SELECT * FROM campaign_types WHERE id = $1`, [id]);
    return rows[0] ? toDomain(rows[0]) : null;
  }

  async findManyByIds(ids: readonly string[]): Promise<CampaignType[]> {
    const platform = ids.flatMap((id) => (PLATFORM.has(id) ? [CampaignType.restore(PLATFORM.get(id)!)] : []));
    const stored = ids.filter((id) => !PLATFORM.has(id) && isUuid(id));
    if (stored.length === 0) return platform;
    const rows: Row[] = await this.tx.manager.query(`SELECT * FROM campaign_types WHERE id = ANY($1::uuid[])`, [stored]);
    return [...platform, ...rows.map(toDomain)];
  }

  async listVisible(workspaceId: string): Promise<CampaignType[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT * FROM campaign_types WHERE workspace_id = $1 AND status = 'ACTIVE' ORDER BY created_at, id`,
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
