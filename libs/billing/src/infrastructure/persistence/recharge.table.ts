import { column, defineTable } from '@outreach/platform';
import type { RechargeProps, RechargeStatus } from '../../domain/recharge';

export const RECHARGES = defineTable<RechargeProps>('recharges', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  status: column.text<RechargeStatus>('status'),
  amountMinor: column.bigint('amount_minor'),
  currency: column.text('currency'),
  reference: column.nullableText('reference'),
  description: column.nullableText('description'),
  createdAt: column.timestamp('created_at'),
  creditedAt: column.nullableTimestamp('credited_at'),
});
