import { Injectable } from '@nestjs/common';
import { AppError } from '@outreach/core';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { AgentRepository } from './agent.ports';

/** The workspace's agent quota (archived agents do not count). Call inside a transaction. */
@Injectable()
export class AgentQuota {
  constructor(
    private readonly agents: AgentRepository,
    private readonly workspaces: WorkspaceAdministration,
  ) {}

  async reserve(workspaceId: string): Promise<void> {
    await this.agents.lockWorkspace(workspaceId);
    const { agentQuota } = await this.workspaces.get(workspaceId);
    const live = await this.agents.countLive(workspaceId);
    if (live >= agentQuota) {
      throw new AppError('agent_limit_reached', {
        message: `the workspace holds ${live} agents and its quota is ${agentQuota}; archive one first`,
      });
    }
  }
}
