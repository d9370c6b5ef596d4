import { column, defineTable } from '@outreach/platform';
import type { WorkflowStatus } from '../../domain/workflow';
import type { RunFacts, RunStatus, StepStatus } from '../../domain/run';
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

export interface WorkflowRunRow {
  id: string;
  workspaceId: string;
  workflowId: string;
  revision: number;
  campaignId: string;
  contactId: string;
  status: RunStatus;
  nodeId: string;
  visit: number;
  dueAt: Date | null;
  endLabel: string | null;
  failureReason: string | null;
  tags: string[];
  facts: RunFacts;
  startedAt: Date;
  endedAt: Date | null;
  updatedAt: Date;
}

/** `workflow_runs` (migration 1763700011700): one per lead, with its position (decisions.md 37.12). */
export const WORKFLOW_RUNS = defineTable<WorkflowRunRow>('workflow_runs', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  workflowId: column.uuid('workflow_id'),
  revision: column.int('revision'),
  campaignId: column.uuid('campaign_id'),
  contactId: column.uuid('contact_id'),
  status: column.text<RunStatus>('status'),
  nodeId: column.text('node_id'),
  visit: column.int('visit'),
  dueAt: column.nullableTimestamp('due_at'),
  endLabel: column.nullableText('end_label'),
  failureReason: column.nullableText('failure_reason'),
  tags: column.textArray('tags'),
  facts: column.json<RunFacts>('facts'),
  startedAt: column.timestamp('started_at'),
  endedAt: column.nullableTimestamp('ended_at'),
  updatedAt: column.timestamp('updated_at'),
});

export interface WorkflowStepRow {
  runId: string;
  visit: number;
  nodeId: string;
  kind: string;
  label: string | null;
  status: StepStatus;
  port: string | null;
  error: string | null;
  callId: string | null;
  messageId: string | null;
  startedAt: Date;
  endedAt: Date | null;
}

/** `workflow_steps` (migration 1763700011700): one row per visit of a node. */
export const WORKFLOW_STEPS = defineTable<WorkflowStepRow>('workflow_steps', {
  runId: column.uuid('run_id'),
  visit: column.int('visit'),
  nodeId: column.text('node_id'),
  kind: column.text('kind'),
  label: column.nullableText('label'),
  status: column.text<StepStatus>('status'),
  port: column.nullableText('port'),
  error: column.nullableText('error'),
  callId: column.nullableUuid('call_id'),
  messageId: column.nullableUuid('message_id'),
  startedAt: column.timestamp('started_at'),
  endedAt: column.nullableTimestamp('ended_at'),
});
