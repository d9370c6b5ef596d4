import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig, AppError, Clock, UnitOfWork } from '@outreach/core';
import { isUuid } from '@outreach/platform';
import { Member } from '../domain/member';
import { Workspace, WorkspaceProps, WorkspaceSettings } from '../domain/workspace';
import { MemberRepository, WorkspaceRepository } from './workspace.ports';

export interface WorkspaceView {
  id: string;
  name: string;
  status: string;
  concurrency: number;
  agentQuota: number;
  features: string[];
  trialUntil: string | null;
  activityFrozen: boolean;
  currency: string;
  rateLimitPerMinute: number | null;
  createdAt: string;
  updatedAt: string;
}

export function workspaceView(props: WorkspaceProps): WorkspaceView {
  return {
    id: props.id,
    name: props.name,
    status: props.status,
    concurrency: props.concurrency,
    agentQuota: props.agentQuota,
    features: props.features,
    trialUntil: props.trialUntil ? props.trialUntil.toISOString() : null,
    activityFrozen: props.activityFrozen,
    currency: props.currency,
    rateLimitPerMinute: props.rateLimitPerMinute,
    createdAt: props.createdAt.toISOString(),
    updatedAt: props.updatedAt.toISOString(),
  };
}

/** Operator actions on workspaces (the CLI), and the read other modules use. */
@Injectable()
export class WorkspaceAdministration {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly members: MemberRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Creates the workspace and its owner member in one transaction. */
  async create(input: {
    name: string;
    status?: string;
    concurrency?: number;
    agentQuota?: number;
    features?: string[];
    currency?: string;
    ownerEmail?: string;
  }): Promise<{ workspace: WorkspaceView; ownerMemberId: string }> {
    const now = this.clock.now();
    const workspace = Workspace.create({
      id: randomUUID(),
      name: input.name,
      status: input.status as never,
      concurrency: input.concurrency ?? this.config.defaultConcurrency,
      agentQuota: input.agentQuota ?? this.config.defaultAgentQuota,
      features: input.features,
      currency: input.currency ?? this.config.defaultCurrency,
      now,
    });
    const owner = Member.create({
      id: randomUUID(),
      workspaceId: workspace.id,
      email: input.ownerEmail ?? `owner+${workspace.id.slice(0, 8)}@workspace.invalid`,
      role: 'owner',
      now,
    });
    await this.uow.run(async () => {
      await this.workspaces.insert(workspace);
      await this.members.insert(owner);
    });
    return { workspace: workspaceView(workspace.toProps()), ownerMemberId: owner.id };
  }

  async setStatus(workspaceId: string, status: string): Promise<WorkspaceView> {
    const workspace = await this.require(workspaceId);
    workspace.setStatus(status, this.clock.now());
    await this.workspaces.update(workspace);
    return workspaceView(workspace.toProps());
  }

  async update(workspaceId: string, settings: WorkspaceSettings): Promise<WorkspaceView> {
    const workspace = await this.require(workspaceId);
    workspace.update(settings, this.clock.now());
    await this.workspaces.update(workspace);
    return workspaceView(workspace.toProps());
  }

  async get(workspaceId: string): Promise<WorkspaceView> {
    return workspaceView((await this.require(workspaceId)).toProps());
  }

  private async require(workspaceId: string): Promise<Workspace> {
    const workspace = isUuid(workspaceId) ? await this.workspaces.findById(workspaceId) : null;
    if (!workspace) throw new AppError('not_found', { message: `no workspace ${workspaceId}` });
    return workspace;
  }
}
