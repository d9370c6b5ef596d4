import { column, defineTable } from '@outreach/platform';
import type { DncEntry } from '../../domain/dnc-entry';

/** `dnc_entries` (migration 1763700003100): UNIQUE (workspace_id, phone). */
export const DNC_ENTRIES = defineTable<DncEntry>('dnc_entries', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  phone: column.text('phone'),
  reason: column.nullableText('reason'),
  createdAt: column.timestamp('created_at'),
});
