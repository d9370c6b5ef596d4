import { column, defineTable } from '@outreach/platform';
import type { StoredResult } from '../../application/results.ports';
import { envelopeInSpecOrder, LeadResultEnvelope } from '../../domain/lead-result';

/** A result envelope as stored; a purged one keeps its row as a tombstone (envelope null, expiredAt set). */
export interface LeadResultRecord extends StoredResult {
  expiredAt: Date | null;
}

export const LEAD_RESULTS = defineTable<LeadResultRecord>('lead_results', {
  id: column.uuid('id'),
  seq: column.bigintText('seq'),
  workspaceId: column.uuid('workspace_id'),
  campaignId: column.uuid('campaign_id'),
  leadId: column.uuid('lead_id'),
  // jsonb keeps no key order: every read rebuilds the spec's order.
  envelope: column.mapped(
    column.json<LeadResultEnvelope | null>('envelope'),
    (stored) => (stored ? envelopeInSpecOrder(stored) : null),
    (envelope) => envelope,
  ),
  createdAt: column.timestamp('created_at'),
  expiresAt: column.timestamp('expires_at'),
  expiredAt: column.nullableTimestamp('expired_at'),
});
