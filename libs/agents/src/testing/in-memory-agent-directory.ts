// In-memory AgentDirectory (the port other modules ask about agents), for use-case specs.
import { AgentDirectory, AgentSummary } from '../application/agent-directory.port';

export class InMemoryAgentDirectory extends AgentDirectory {
  readonly agents = new Map<string, AgentSummary>();

  /** Adds an agent (defaults: ACTIVE, OUTBOUND, 600 s calls, no keys); returns it. */
  add(agent: Partial<AgentSummary> & { id: string; workspaceId: string }): AgentSummary {
    const summary: AgentSummary = {
      name: `Agent ${agent.id}`,
      status: 'ACTIVE',
      agentType: 'OUTBOUND',
      maxCallDurationSecs: 600,
      extractionKeys: [],
      ...agent,
    };
    this.agents.set(summary.id, summary);
    return summary;
  }

  async find(workspaceId: string, agentId: string): Promise<AgentSummary | null> {
    const agent = this.agents.get(agentId);
    return agent && agent.workspaceId === workspaceId ? structuredClone(agent) : null;
  }
}
