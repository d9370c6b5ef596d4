import type { WorkflowProps, WorkflowStatus } from '../domain/workflow';
import type { WorkflowDefinition } from '../domain/workflow-definition';

/** A workflow in lists (the contract's shape). */
export interface WorkflowSummaryView {
  id: string;
  name: string;
  status: WorkflowStatus;
  revision: number;
  updatedAt: string;
}

/** One workflow with its current revision's definition. */
export interface WorkflowView extends WorkflowSummaryView {
  definition: WorkflowDefinition;
  createdAt: string;
}

export function toWorkflowSummary(w: Pick<WorkflowProps, 'id' | 'name' | 'status' | 'revision' | 'updatedAt'>): WorkflowSummaryView {
  return { id: w.id, name: w.name, status: w.status, revision: w.revision, updatedAt: w.updatedAt.toISOString() };
}

export function toWorkflowView(w: WorkflowProps): WorkflowView {
  return { ...toWorkflowSummary(w), definition: w.definition, createdAt: w.createdAt.toISOString() };
}
