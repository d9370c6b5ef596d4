import { column, defineTable } from '@outreach/platform';
import type { LeadKeyRecord, LeadPushBody } from '../../application/results.ports';
import type { Lead } from '../../domain/lead';

/** The lead push's idempotency keys, one per (campaign, key). */
export const API_LEAD_KEYS = defineTable<LeadKeyRecord>('api_lead_keys', {
  campaignId: column.uuid('campaign_id'),
  idempotencyKey: column.text('idempotency_key'),
  workspaceId: column.uuid('workspace_id'),
  leadId: column.nullableUuid('lead_id'),
  fingerprint: column.text('fingerprint'),
  lead: column.json<Lead>('lead'),
  response: column.json<LeadPushBody | null>('response'),
  createdAt: column.timestamp('created_at'),
});
