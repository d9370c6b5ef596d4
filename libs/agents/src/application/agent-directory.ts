import { Injectable } from '@nestjs/common';
import { isUuid } from '@outreach/core';
import { AgentDirectory, AgentSummary } from './agent-directory.port';
import { AgentRepository } from './agent.ports';

@Injectable()
export class RepositoryAgentDirectory extends AgentDirectory {
  constructor(private readonly agents: AgentRepository) {
    super();
  }

  async find(workspaceId: string, agentId: string): Promise<AgentSummary | null> {
    if (!isUuid(workspaceId) || !isUuid(agentId)) return null;
    const agent = await this.agents.findById(workspaceId, agentId);
    if (!agent) return null;
    const p = agent.toProps();
    return {
      id: p.id,
      workspaceId: p.workspaceId,
      name: p.name,
      status: p.status,
      agentType: p.agentType,
      maxCallDurationSecs: p.maxCallDurationSecs,
      extractionKeys: (p.extractionConfig?.keys ?? []).map((k) => ({ name: k.name, type: k.type, description: k.description })),
    };
  }
}
