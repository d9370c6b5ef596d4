import { column, defineTable } from '@outreach/platform';
import { CampaignTypeProps, CampaignTypeStatus } from '../../domain/campaign-type.aggregate';
import { ExtractionKey } from '../../domain/extraction-keys';

/** The campaign_types table (workspace types; platform types live in code), declared once. */
export const CAMPAIGN_TYPES = defineTable<CampaignTypeProps>('campaign_types', {
  id: column.uuid('id'),
  workspaceId: column.nullableUuid('workspace_id'),
  name: column.text('name'),
  description: column.text('description'),
  extractionKeys: column.json<ExtractionKey[]>('extraction_keys'),
  status: column.text<CampaignTypeStatus>('status'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});
