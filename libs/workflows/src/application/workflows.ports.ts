import type { ReferenceCheck } from '../domain/definition-rules';
import type { Workflow, WorkflowProps } from '../domain/workflow';
import type { WorkflowDefinition } from '../domain/workflow-definition';

/** Workflows and their frozen revisions. */
export abstract class WorkflowRepository {
  /** Writes a new workflow and its revision 1. */
  abstract insert(workflow: WorkflowProps): Promise<void>;
  /**
   * Writes the workflow at its new revision (and that revision's definition) only if the stored
   * revision is still `expected`; false when another write came first.
   */
  abstract save(workflow: WorkflowProps, expected: number): Promise<boolean>;
  /** The workflow (not deleted) of this workspace, with its current definition; `forUpdate` locks the row. */
  abstract find(workspaceId: string, id: string, options?: { forUpdate?: boolean }): Promise<Workflow | null>;
  abstract list(workspaceId: string): Promise<WorkflowProps[]>;
  /** Hides the workflow (its revisions stay for the runs that use them). */
  abstract markDeleted(id: string, at: Date): Promise<void>;
  /** The definition of one revision (runs read the revision they started on). */
  abstract revision(workflowId: string, revision: number): Promise<WorkflowDefinition | null>;
  /** Whether a workflow of the workspace that is neither archived nor deleted names the agent in its current revision. */
  abstract referencesAgent(workspaceId: string, agentId: string): Promise<boolean>;
}

/** What the workspace holds of the agents and templates a definition names. */
export abstract class WorkflowReferences {
  abstract check(workspaceId: string, definition: WorkflowDefinition): Promise<ReferenceCheck>;
}

/** Whether a workspace has the `workflows` feature (off: every workflow is "not found"). */
export abstract class WorkflowFeature {
  abstract enabled(workspaceId: string): Promise<boolean>;
}
