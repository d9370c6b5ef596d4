import { column, defineTable } from '@outreach/platform';

/** The operator's switch for one carrier of one workspace; a carrier without a row is enabled. */
export interface TelephonyCarrierRecord {
  workspaceId: string;
  name: string;
  enabled: boolean;
  updatedAt: Date;
}

/** `telephony_carriers` (migration 1763700002000), keyed by (workspace_id, name). */
export const TELEPHONY_CARRIERS = defineTable<TelephonyCarrierRecord>('telephony_carriers', {
  workspaceId: column.uuid('workspace_id'),
  name: column.text('name'),
  enabled: column.bool('enabled'),
  updatedAt: column.timestamp('updated_at'),
});
