import { Injectable } from '@nestjs/common';
import { AppError } from '@outreach/core';
import { AgentRepository } from './agent.ports';
import { AgentKnowledge } from './agent-knowledge';

/**
 * The full system prompt the voice runtime receives. For the service itself (call execution,
 * operator tooling): over HTTP API keys get 403 prompt_access_forbidden instead. The agent's
 * knowledge (its documents' text, its dictionaries' terms) is appended by the knowledge module
 * when it is loaded (decisions.md 39.9).
 */
@Injectable()
export class CompileAgentPrompt {
  constructor(
    private readonly agents: AgentRepository,
    private readonly knowledge: AgentKnowledge,
  ) {}

  async execute(workspaceId: string, agentId: string): Promise<string> {
    const agent = await this.agents.findById(workspaceId, agentId);
    if (!agent) throw new AppError('not_found', { message: `no agent ${agentId}` });
    const docIds = [...new Set(agent.knowledgeReferences().map((r) => r.id))];
    const knowledge = await this.knowledge.promptSection(workspaceId, agentId, docIds);
    return knowledge ? `${agent.compiledPrompt()}\n\n${knowledge}` : agent.compiledPrompt();
  }
}
