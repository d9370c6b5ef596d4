// WorkspaceAdministration as other modules read it (`get`), answering workspaces a spec sets.
import { AppError } from '@outreach/core';
import { WorkspaceAdministration, WorkspaceView } from '../application/workspace-administration';

export class StubWorkspaceAdministration extends WorkspaceAdministration {
  readonly views = new Map<string, WorkspaceView>();

  constructor() {
    super(null as never, null as never, null as never, null as never, null as never);
  }

  /** Adds a workspace (defaults: ACTIVE, concurrency 10, no trial, not frozen); returns it. */
  add(workspace: Partial<WorkspaceView> & { id: string }): WorkspaceView {
    const view: WorkspaceView = {
      name: `Workspace ${workspace.id}`,
      status: 'ACTIVE',
      concurrency: 10,
      agentQuota: 50,
      features: [],
      trialUntil: null,
      activityFrozen: false,
      currency: 'USD',
      rateLimitPerMinute: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      ...workspace,
    };
    this.views.set(view.id, view);
    return view;
  }

  override async get(workspaceId: string): Promise<WorkspaceView> {
    const workspace = this.views.get(workspaceId);
    if (!workspace) throw new AppError('not_found', { message: `no workspace ${workspaceId}` });
    return structuredClone(workspace);
  }
}
