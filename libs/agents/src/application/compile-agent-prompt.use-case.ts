import { Injectable } from '@nestjs/common';
import { AppError } from '@outreach/core';
import { AgentRepository } from './agent.ports';

/**
 * The full system prompt the voice runtime receives. For the service itself (call execution,
 * operator tooling): over HTTP API keys get 403 prompt_access_forbidden instead.
 */
@Injectable()
export class CompileAgentPrompt {
  constructor(private readonly agents: AgentRepository) {}

  async execute(workspaceId: string, agentId: string): Promise<string> {
    const agent = await this.agents.findById(workspaceId, agentId);
    if (!agent) throw new AppError('not_found', { message: `no agent ${agentId}` });
    return agent.compiledPrompt();
  }
}
