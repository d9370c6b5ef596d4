// In-memory fakes of the workflows module's ports, for use-case specs.
import type { Rollbackable } from '../../../platform/src/testing';
import { WorkflowFeature, WorkflowReferences, WorkflowRepository } from '../application/workflows.ports';
import type { ReferenceCheck } from '../domain/definition-rules';
import { Workflow, WorkflowProps } from '../domain/workflow';
import type { WorkflowDefinition } from '../domain/workflow-definition';

/** Workflows and their revisions in maps; a Rollbackable for RollbackUnitOfWork. */
export class InMemoryWorkflowRepository extends WorkflowRepository implements Rollbackable {
  readonly rows = new Map<string, WorkflowProps & { deletedAt: Date | null }>();
  readonly revisions = new Map<string, WorkflowDefinition>();
  /** Called between a writer's read and its conditional write (to simulate a concurrent writer). */
  beforeSave: (() => void) | null = null;

  async insert(w: WorkflowProps): Promise<void> {
    this.rows.set(w.id, { ...structuredClone(w), deletedAt: null });
    this.revisions.set(`${w.id}:${w.revision}`, structuredClone(w.definition));
  }

  async save(w: WorkflowProps, expected: number): Promise<boolean> {
    const hook = this.beforeSave;
    this.beforeSave = null;
    hook?.();
    const row = this.rows.get(w.id);
    if (!row || row.deletedAt || row.revision !== expected) return false;
    this.rows.set(w.id, { ...structuredClone(w), deletedAt: null });
    this.revisions.set(`${w.id}:${w.revision}`, structuredClone(w.definition));
    return true;
  }

  async find(workspaceId: string, id: string): Promise<Workflow | null> {
    const row = this.rows.get(id);
    if (!row || row.workspaceId !== workspaceId || row.deletedAt) return null;
    const { deletedAt: _deleted, ...props } = structuredClone(row);
    return Workflow.restore(props);
  }

  async list(workspaceId: string): Promise<WorkflowProps[]> {
    return [...this.rows.values()].filter((r) => r.workspaceId === workspaceId && !r.deletedAt).map((r) => structuredClone(r));
  }

  async markDeleted(id: string, at: Date): Promise<void> {
    const row = this.rows.get(id);
    if (row) row.deletedAt = at;
  }

  async revision(workflowId: string, revision: number): Promise<WorkflowDefinition | null> {
    return structuredClone(this.revisions.get(`${workflowId}:${revision}`) ?? null);
  }

  async referencesAgent(workspaceId: string, agentId: string): Promise<boolean> {
    return [...this.rows.values()].some(
      (r) => r.workspaceId === workspaceId && !r.deletedAt && r.status !== 'archived' && r.definition.nodes.some((n) => n.kind === 'call' && (n.config as { agentId: string }).agentId === agentId),
    );
  }

  snapshot(): unknown {
    return { rows: structuredClone([...this.rows]), revisions: structuredClone([...this.revisions]) };
  }

  restore(state: unknown): void {
    const s = state as { rows: Array<[string, WorkflowProps & { deletedAt: Date | null }]>; revisions: Array<[string, WorkflowDefinition]> };
    this.rows.clear();
    s.rows.forEach(([k, v]) => this.rows.set(k, v));
    this.revisions.clear();
    s.revisions.forEach(([k, v]) => this.revisions.set(k, v));
  }
}

/** The agents and templates of each workspace, as ids. */
export class InMemoryWorkflowReferences extends WorkflowReferences {
  readonly existing = new Set<string>();

  add(workspaceId: string, kind: 'agent' | 'whatsapp_template' | 'email_template', id: string): void {
    this.existing.add(`${workspaceId}:${kind}:${id}`);
  }

  async check(workspaceId: string): Promise<ReferenceCheck> {
    return { exists: (kind, id) => this.existing.has(`${workspaceId}:${kind}:${id}`) };
  }
}

/** Workspaces with the `workflows` feature. */
export class InMemoryWorkflowFeature extends WorkflowFeature {
  readonly enabledFor = new Set<string>();

  async enabled(workspaceId: string): Promise<boolean> {
    return this.enabledFor.has(workspaceId);
  }
}

/** The README's journey with fixed agent and template ids (domain/example-journey.ts). */
export { exampleJourney as exampleDefinition } from '../domain/example-journey';
