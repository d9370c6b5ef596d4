import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, isUuid, UnitOfWork } from '@outreach/core';
import { assertReferences, assertValidShape } from '../domain/definition-rules';
import type { WorkflowDefinition } from '../domain/workflow-definition';
import { Workflow } from '../domain/workflow';
import { toWorkflowSummary, toWorkflowView, WorkflowSummaryView, WorkflowView } from './workflow-view';
import { WorkflowReferences, WorkflowRepository } from './workflows.ports';

/**
 * Workflow definitions (decisions.md 37.1, 37.2): create, read, edit, activate, archive, delete.
 * Every write names the revision it edits and is checked twice: against the row it read (409
 * concurrent_modification with currentRevision) and by the conditional UPDATE itself, so two
 * writers racing at the same revision cannot both win.
 */
@Injectable()
export class Workflows {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly references: WorkflowReferences,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, input: { name: string; definition: unknown }): Promise<WorkflowView> {
    const definition = await this.validated(workspaceId, input.definition);
    const workflow = Workflow.create({ id: randomUUID(), workspaceId, name: input.name, definition, now: this.clock.now() });
    await this.uow.run(() => this.workflows.insert(workflow.toProps()));
    return toWorkflowView(workflow.toProps());
  }

  async list(workspaceId: string): Promise<WorkflowSummaryView[]> {
    return (await this.workflows.list(workspaceId)).map(toWorkflowSummary);
  }

  async get(workspaceId: string, id: string): Promise<WorkflowView> {
    return toWorkflowView((await this.load(workspaceId, id)).toProps());
  }

  /** PUT: replaces the name and/or the definition at `revision`. */
  async update(workspaceId: string, id: string, input: { revision: number; name?: string; definition?: unknown }): Promise<WorkflowView> {
    const definition = input.definition === undefined ? undefined : await this.validated(workspaceId, input.definition);
    return this.write(workspaceId, id, input.revision, (w, now) => w.edit(input.revision, { name: input.name, definition }, now));
  }

  /** DRAFT → ACTIVE. The definition is checked again: an agent or template it names may be gone since. */
  async activate(workspaceId: string, id: string, revision: number): Promise<WorkflowView> {
    const current = await this.load(workspaceId, id);
    current.assertRevision(revision);
    assertReferences(current.definition, await this.references.check(workspaceId, current.definition));
    return this.write(workspaceId, id, revision, (w, now) => w.activate(revision, now));
  }

  async archive(workspaceId: string, id: string, revision: number): Promise<WorkflowView> {
    return this.write(workspaceId, id, revision, (w, now) => w.archive(revision, now));
  }

  /** Hides the workflow: its id answers workflow_not_found; runs keep reading their revision. */
  async remove(workspaceId: string, id: string, revision: number | undefined): Promise<void> {
    await this.uow.run(async () => {
      const workflow = await this.load(workspaceId, id, true);
      // Required, but asked for once the workflow is found: another workspace's id answers 404 like an unknown one.
      if (revision === undefined) throw new AppError('invalid_query', { issues: [{ path: 'revision', message: 'revision is required' }] });
      workflow.assertRevision(revision);
      await this.workflows.markDeleted(id, this.clock.now());
    });
  }

  private async write(workspaceId: string, id: string, revision: number, change: (w: Workflow, now: Date) => unknown): Promise<WorkflowView> {
    return this.uow.run(async () => {
      const workflow = await this.load(workspaceId, id, true);
      const before = workflow.revision;
      change(workflow, this.clock.now());
      if (workflow.revision !== before && !(await this.workflows.save(workflow.toProps(), before))) {
        const now = await this.load(workspaceId, id);
        throw new AppError('concurrent_modification', { message: `revision ${revision} is stale`, currentRevision: now.revision });
      }
      return toWorkflowView(workflow.toProps());
    });
  }

  private async validated(workspaceId: string, input: unknown): Promise<WorkflowDefinition> {
    const definition = assertValidShape(input);
    assertReferences(definition, await this.references.check(workspaceId, definition));
    return definition;
  }

  private async load(workspaceId: string, id: string, forUpdate = false): Promise<Workflow> {
    const workflow = isUuid(id) ? await this.workflows.find(workspaceId, id, { forUpdate }) : null;
    if (!workflow) throw new AppError('workflow_not_found', { message: `no workflow ${id}` });
    return workflow;
  }
}
