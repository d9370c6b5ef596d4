import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { CampaignRepository, CampaignStats } from '../application/campaigns.ports';
import { Campaign, CampaignProps } from '../domain/campaign.aggregate';
import { CampaignChannel, CampaignSource, ExtractionMode } from '../domain/campaign-kinds';
import { CampaignSettings, withDefaultSettings } from '../domain/campaign-settings';
import { CampaignStatus } from '../domain/campaign-state-machine';
import { EvaluationMetric, ExtractionKey } from '../domain/extraction-keys';
import { CONTACT_COUNT_OF_C } from './contact-count.sql';

type CampaignRow = {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  status: string;
  channel: string;
  source: string;
  agent_id: string | null;
  campaign_type_id: string | null;
  workflow_id: string | null;
  default_crm_connection_id: string | null;
  default_crm_segment_id: string | null;
  reserved_concurrency: number;
  allow_burst: boolean;
  timezone: string;
  scheduled_start_at: Date | null;
  scheduled_end_at: Date | null;
  started_at: Date | null;
  ended_at: Date | null;
  upload_id: string | null;
  phone_column: string | null;
  alt_phone_columns: string[];
  country_code: string | null;
  remove_invalid_rows: boolean;
  variable_map: Record<string, string>;
  custom_extraction_keys: ExtractionKey[];
  custom_extraction_keys_mode: string;
  evaluation_metrics: EvaluationMetric[];
  settings: Partial<CampaignSettings>;
  created_at: Date;
  updated_at: Date;
};

/** Mapper: row ↔ aggregate props. The column order here is the one of INSERT and UPDATE below. */
const COLUMNS = [
  'id',
  'workspace_id',
  'name',
  'description',
  'status',
  'channel',
  'source',
  'agent_id',
  'campaign_type_id',
  'workflow_id',
  'default_crm_connection_id',
  'default_crm_segment_id',
  'reserved_concurrency',
  'allow_burst',
  'timezone',
  'scheduled_start_at',
  'scheduled_end_at',
  'started_at',
  'ended_at',
  'upload_id',
  'phone_column',
  'alt_phone_columns',
  'country_code',
  'remove_invalid_rows',
  'variable_map',
  'custom_extraction_keys',
  'custom_extraction_keys_mode',
  'evaluation_metrics',
  'settings',
  'created_at',
  'updated_at',
] as const;

function toValues(p: CampaignProps): unknown[] {
  return [
    p.id,
    p.workspaceId,
    p.name,
    p.description,
    p.status,
    p.channel,
    p.source,
    p.agentId,
    p.campaignTypeId,
    p.workflowId,
    p.defaultCrmConnectionId,
    p.defaultCrmSegmentId,
    p.reservedConcurrency,
    p.allowBurst,
    p.timezone,
    p.scheduledStartAt,
    p.scheduledEndAt,
    p.startedAt,
    p.endedAt,
    p.uploadId,
    p.phoneColumn,
    p.altPhoneColumns,
    p.countryCode,
    p.removeInvalidRows,
    JSON.stringify(p.variableMap),
    JSON.stringify(p.customExtractionKeys),
    p.customExtractionKeysMode,
    JSON.stringify(p.evaluationMetrics),
    JSON.stringify(p.settings),
    p.createdAt,
    p.updatedAt,
  ];
}

function toProps(r: CampaignRow): CampaignProps {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    name: r.name,
    description: r.description,
    status: r.status as CampaignStatus,
    channel: r.channel as CampaignChannel,
    source: r.source as CampaignSource,
    agentId: r.agent_id,
    campaignTypeId: r.campaign_type_id,
    workflowId: r.workflow_id,
    defaultCrmConnectionId: r.default_crm_connection_id,
    defaultCrmSegmentId: r.default_crm_segment_id,
    reservedConcurrency: r.reserved_concurrency,
    allowBurst: r.allow_burst,
    timezone: r.timezone,
    scheduledStartAt: r.scheduled_start_at,
    scheduledEndAt: r.scheduled_end_at,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    uploadId: r.upload_id,
    phoneColumn: r.phone_column,
    altPhoneColumns: r.alt_phone_columns,
    countryCode: r.country_code,
    removeInvalidRows: r.remove_invalid_rows,
    variableMap: r.variable_map,
    customExtractionKeys: r.custom_extraction_keys,
    customExtractionKeysMode: r.custom_extraction_keys_mode as ExtractionMode,
    evaluationMetrics: r.evaluation_metrics,
    settings: withDefaultSettings(r.settings),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const SELECT = `SELECT ${COLUMNS.join(', ')} FROM campaigns`;

/** Advisory-lock namespace for "reservations of one workspace" (any fixed 32-bit number). */
export const RESERVATION_LOCK_NAMESPACE = 727_400_210;

@Injectable()
export class SqlCampaignRepository extends CampaignRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(campaign: Campaign): Promise<void> {
    const placeholders = COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
    await this.translate(() =>
      this.tx.manager.query(`INSERT INTO campaigns (${COLUMNS.join(', ')}) VALUES (${placeholders})`, toValues(campaign.toProps())),
    );
  }

  async update(campaign: Campaign): Promise<void> {
    const assignments = COLUMNS.slice(1)
      .map((column, i) => `${column} = $${i + 2}`)
      .join(', ');
    await this.translate(() => this.tx.manager.query(`UPDATE campaigns SET ${assignments} WHERE id = $1`, toValues(campaign.toProps())));
  }

  async findById(workspaceId: string, id: string): Promise<Campaign | null> {
    if (!isUuid(id)) return null;
    const rows: CampaignRow[] = await this.tx.manager.query(`${SELECT} WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
    return rows[0] ? Campaign.restore(toProps(rows[0])) : null;
  }

  async findByIdForUpdate(workspaceId: string, id: string): Promise<Campaign | null> {
    if (!isUuid(id)) return null;
    const rows: CampaignRow[] = await this.tx.manager.query(`${SELECT} WHERE id = $1 AND workspace_id = $2 FOR UPDATE`, [
      id,
      workspaceId,
    ]);
    return rows[0] ? Campaign.restore(toProps(rows[0])) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<Campaign[]> {
    const rows: CampaignRow[] = await this.tx.manager.query(`${SELECT} WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC`, [
      workspaceId,
    ]);
    return rows.map((r) => Campaign.restore(toProps(r)));
  }

  async stats(ids: readonly string[]): Promise<Map<string, CampaignStats>> {
    if (ids.length === 0) return new Map();
    const rows: Array<{ id: string; contact_count: number; received_calls: number }> = await this.tx.manager.query(
      `SELECT c.id, ${CONTACT_COUNT_OF_C} AS contact_count, c.received_calls FROM campaigns c WHERE c.id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, { contactCount: r.contact_count, receivedCalls: r.received_calls }]));
  }

  async delete(id: string): Promise<void> {
    await this.tx.manager.query(`DELETE FROM campaigns WHERE id = $1`, [id]);
  }

  async lockAndSumRunningReservations(workspaceId: string, exceptId: string): Promise<number> {
    await this.tx.manager.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [RESERVATION_LOCK_NAMESPACE, workspaceId]);
    const rows: Array<{ total: string }> = await this.tx.manager.query(
      `SELECT COALESCE(SUM(reserved_concurrency), 0) AS total FROM campaigns
        WHERE workspace_id = $1 AND status = 'RUNNING' AND id <> $2`,
      [workspaceId, exceptId],
    );
    return Number(rows[0].total);
  }

  async referencesAgent(workspaceId: string, agentId: string): Promise<boolean> {
    if (!isUuid(agentId)) return false;
    const rows: unknown[] = await this.tx.manager.query(`SELECT 1 FROM campaigns WHERE workspace_id = $1 AND agent_id = $2 LIMIT 1`, [
      workspaceId,
      agentId,
    ]);
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
