import { column, defineTable } from '@outreach/platform';
import type { WorkflowStatus } from '../../domain/workflow';
import type { WorkflowDefinition } from '../../domain/workflow-definition';

export interface WorkflowRow {
  id: string;
  workspaceId: string;
  name: string;
  status: WorkflowStatus;
  revision: number;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** `workflows` (migration 1763700011400). */
export const WORKFLOWS = defineTable<WorkflowRow>('workflows', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  name: column.text('name'),
  status: column.text<WorkflowStatus>('status'),
  revision: column.int('revision'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
  deletedAt: column.nullableTimestamp('deleted_at'),
});

export interface WorkflowRevisionRow {
  workflowId: string;
  revision: number;
  definition: WorkflowDefinition;
  createdAt: Date;
}

/** `workflow_revisions` (migration 1763700011400): one frozen definition per revision. */
export const WORKFLOW_REVISIONS = defineTable<WorkflowRevisionRow>('workflow_revisions', {
  workflowId: column.uuid('workflow_id'),
  revision: column.int('revision'),
  definition: column.json<WorkflowDefinition>('definition'),
  createdAt: column.timestamp('created_at'),
});
