import { column, defineTable } from '@outreach/platform';
import { CampaignProps } from '../../domain/campaign.aggregate';
import { CampaignChannel, CampaignSource, ExtractionMode } from '../../domain/campaign-kinds';
import { CampaignSettings, withDefaultSettings } from '../../domain/campaign-settings';
import { CampaignStatus } from '../../domain/campaign-state-machine';
import { EvaluationMetric, ExtractionKey } from '../../domain/extraction-keys';

/** A campaigns row: the aggregate's properties and the counters kept beside them. */
export interface CampaignRecord extends CampaignProps {
  /** Inbound calls received; read by the campaign stats, never written by the aggregate. */
  receivedCalls: number;
}

/**
 * The campaigns table, declared once (docs/decisions.md, "Persistence"). The repository, the
 * execution read model and every hand-written statement take columns from here. A setting in the
 * jsonb `settings` document needs no change here (stored keys merge over the defaults on read).
 */
export const CAMPAIGNS = defineTable<CampaignRecord>('campaigns', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  name: column.text('name'),
  description: column.nullableText('description'),
  status: column.text<CampaignStatus>('status'),
  channel: column.text<CampaignChannel>('channel'),
  source: column.text<CampaignSource>('source'),
  agentId: column.nullableUuid('agent_id'),
  campaignTypeId: column.nullableUuid('campaign_type_id'),
  workflowId: column.nullableUuid('workflow_id'),
  defaultCrmConnectionId: column.nullableText('default_crm_connection_id'),
  defaultCrmSegmentId: column.nullableText('default_crm_segment_id'),
  reservedConcurrency: column.int('reserved_concurrency'),
  allowBurst: column.bool('allow_burst'),
  timezone: column.text('timezone'),
  scheduledStartAt: column.nullableTimestamp('scheduled_start_at'),
  scheduledEndAt: column.nullableTimestamp('scheduled_end_at'),
  startedAt: column.nullableTimestamp('started_at'),
  endedAt: column.nullableTimestamp('ended_at'),
  pauseReason: column.nullableText('pause_reason'),
  runningSince: column.nullableTimestamp('running_since'),
  uploadId: column.nullableUuid('upload_id'),
  phoneColumn: column.nullableText('phone_column'),
  altPhoneColumns: column.textArray('alt_phone_columns'),
  countryCode: column.nullableText('country_code'),
  removeInvalidRows: column.bool('remove_invalid_rows'),
  variableMap: column.json<Record<string, string>>('variable_map'),
  customExtractionKeys: column.json<ExtractionKey[]>('custom_extraction_keys'),
  customExtractionKeysMode: column.text<ExtractionMode>('custom_extraction_keys_mode'),
  evaluationMetrics: column.json<EvaluationMetric[]>('evaluation_metrics'),
  settings: column.mapped(
    column.json<Partial<CampaignSettings>>('settings'),
    (stored) => withDefaultSettings(stored),
    (settings: CampaignSettings) => settings,
  ),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
  receivedCalls: column.int('received_calls'),
});

/** The aggregate's properties, in declaration order: what is read into and written from a Campaign. */
export const CAMPAIGN_PROPS = CAMPAIGNS.keys.filter((key): key is keyof CampaignProps => key !== 'receivedCalls');
