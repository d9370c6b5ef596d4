import { column, defineTable } from '@outreach/platform';
import type { WorkspaceFeature, WorkspaceProps, WorkspaceStatus } from '../../domain/workspace';

/** `workspaces` (migration 1763700000100). */
export const WORKSPACES = defineTable<WorkspaceProps>('workspaces', {
  id: column.uuid('id'),
  name: column.text('name'),
  status: column.text<WorkspaceStatus>('status'),
  concurrency: column.int('concurrency'),
  agentQuota: column.int('agent_quota'),
  features: column.textArray<WorkspaceFeature>('features'),
  trialUntil: column.nullableTimestamp('trial_until'),
  activityFrozen: column.bool('activity_frozen'),
  currency: column.text('currency'),
  rateLimitPerMinute: column.nullableInt('rate_limit_per_minute'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});
