import { AppError } from '@outreach/core';
import type { WorkflowDefinition } from './workflow-definition';

/** DRAFT → ACTIVE → archived (the contract's words; `archived` is lower case there). */
export const WORKFLOW_STATUSES = ['DRAFT', 'ACTIVE', 'archived'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

export type WorkflowEvent = 'edit' | 'activate' | 'archive';

/** The transition table (decisions.md 37.2). Absent: refused. */
const TRANSITIONS: Readonly<Record<WorkflowStatus, Partial<Record<WorkflowEvent, WorkflowStatus>>>> = {
  DRAFT: { edit: 'DRAFT', activate: 'ACTIVE', archive: 'archived' },
  ACTIVE: { edit: 'ACTIVE', activate: 'ACTIVE', archive: 'archived' },
  archived: {},
};

export interface WorkflowProps {
  id: string;
  workspaceId: string;
  name: string;
  status: WorkflowStatus;
  /** 1 at creation, +1 on every successful write (decisions.md 37.2). */
  revision: number;
  /** The definition of the current revision (each revision's definition is kept: runs use the one they started on). */
  definition: WorkflowDefinition;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A workflow. Every write names the revision it edits; a stale one is refused with 409
 * concurrent_modification and the current revision. Each write makes a new revision whose
 * definition is frozen: runs keep the revision they started on.
 */
export class Workflow {
  private constructor(private props: WorkflowProps) {}

  static create(input: { id: string; workspaceId: string; name: string; definition: WorkflowDefinition; now: Date }): Workflow {
    return new Workflow({ ...input, status: 'DRAFT', revision: 1, createdAt: input.now, updatedAt: input.now });
  }

  static restore(props: WorkflowProps): Workflow {
    return new Workflow({ ...props });
  }

  get id(): string {
    return this.props.id;
  }
  get status(): WorkflowStatus {
    return this.props.status;
  }
  get revision(): number {
    return this.props.revision;
  }
  get definition(): WorkflowDefinition {
    return this.props.definition;
  }

  toProps(): WorkflowProps {
    return { ...this.props };
  }

  /** Refuses a write that names another revision than the current one. */
  assertRevision(revision: number): void {
    if (revision !== this.props.revision) {
      throw new AppError('concurrent_modification', {
        message: `revision ${revision} is stale: the workflow is at revision ${this.props.revision}`,
        currentRevision: this.props.revision,
      });
    }
  }

  /** Applies an event at `revision`; returns whether anything changed (activating an ACTIVE workflow does not). */
  private apply(event: WorkflowEvent, revision: number, now: Date, change: Partial<Pick<WorkflowProps, 'name' | 'definition'>> = {}): boolean {
    this.assertRevision(revision);
    const next = TRANSITIONS[this.props.status][event];
    if (!next) throw new AppError('invalid_request', { message: `an ${this.props.status} workflow cannot be changed (${event})` });
    if (event === 'activate' && this.props.status === 'ACTIVE') return false;
    this.props = { ...this.props, ...change, status: next, revision: this.props.revision + 1, updatedAt: now };
    return true;
  }

  edit(revision: number, change: { name?: string; definition?: WorkflowDefinition }, now: Date): void {
    this.apply('edit', revision, now, {
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.definition !== undefined ? { definition: change.definition } : {}),
    });
  }

  activate(revision: number, now: Date): boolean {
    return this.apply('activate', revision, now);
  }

  archive(revision: number, now: Date): void {
    this.apply('archive', revision, now);
  }
}
