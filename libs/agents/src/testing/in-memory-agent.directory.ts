import { AgentDirectory, AgentSummary } from '../application/agent-directory.port';

/** The agents other modules may see, set up by the spec. */
export class InMemoryAgentDirectory extends AgentDirectory {
  readonly agents = new Map<string, AgentSummary>();

  /** Test setup: an ACTIVE outbound agent unless told otherwise. */
  add(agent: Partial<AgentSummary> & { id: string; workspaceId: string }): AgentSummary {
    const summary: AgentSummary = { name: `agent ${agent.id}`, status: 'ACTIVE', agentType: 'OUTBOUND', maxCallDurationSecs: 600, extractionKeys: [], ...agent };
    this.agents.set(summary.id, summary);
    return summary;
  }

  async find(workspaceId: string, agentId: string): Promise<AgentSummary | null> {
    const agent = this.agents.get(agentId);
    return agent && agent.workspaceId === workspaceId ? { ...agent } : null;
  }
}
