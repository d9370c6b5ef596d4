import { column, defineTable } from '@outreach/platform';
import type { TariffOverride } from '../../application/wallet.ports';

/** A workspace's tariff override (null prices fall back to the configured defaults). */
export interface WorkspaceTariffRecord extends TariffOverride {
  workspaceId: string;
  updatedAt: Date;
}

export const WORKSPACE_TARIFFS = defineTable<WorkspaceTariffRecord>('workspace_tariffs', {
  workspaceId: column.uuid('workspace_id'),
  voiceMinuteMinor: column.nullableBigint('voice_minute_minor'),
  messageMinor: column.nullableBigint('message_minor'),
  updatedAt: column.timestamp('updated_at'),
});
