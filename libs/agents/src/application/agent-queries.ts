import { Injectable } from '@nestjs/common';
import { AppError } from '@outreach/core';
import { AgentView, agentView } from './agent-view';
import { AgentRepository } from './agent.ports';

/** Reads: the workspace's agents (unpaginated configuration list) and one agent. */
@Injectable()
export class AgentQueries {
  constructor(private readonly agents: AgentRepository) {}

  async list(workspaceId: string): Promise<AgentView[]> {
    return (await this.agents.listByWorkspace(workspaceId)).map(agentView);
  }

  async get(workspaceId: string, agentId: string): Promise<AgentView> {
    const agent = await this.agents.findById(workspaceId, agentId);
    if (!agent) throw new AppError('not_found', { message: `no agent ${agentId}` });
    return agentView(agent);
  }
}
