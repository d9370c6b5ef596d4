import { AppError } from '@outreach/core';
import { WorkspaceAdministration, WorkspaceView } from '../application/workspace-administration';

/**
 * WorkspaceAdministration as other modules use it (`get`), over workspaces a spec sets up.
 * Operator actions (create, update…) are not faked: they fail loudly.
 */
export class StubWorkspaceAdministration extends WorkspaceAdministration {
  readonly views = new Map<string, WorkspaceView>();

  constructor() {
    super(null as never, null as never, null as never, null as never, null as never);
  }

  /** Test setup: an ACTIVE workspace unless told otherwise. */
  add(workspace: Partial<WorkspaceView> & { id: string }): WorkspaceView {
    const view: WorkspaceView = {
      name: `workspace ${workspace.id}`,
      status: 'ACTIVE',
      concurrency: 1,
      agentQuota: 10,
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
    return { ...workspace };
  }
}
