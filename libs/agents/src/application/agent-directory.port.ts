/**
 * What other modules (campaigns, telephony) may know about an agent, and how they ask. They
 * depend on this port only, never on the agents' repository or tables.
 */
export interface AgentSummary {
  id: string;
  workspaceId: string;
  name: string;
  status: 'PROVISIONING' | 'ACTIVE' | 'archived';
  agentType: 'OUTBOUND' | 'INBOUND';
  maxCallDurationSecs: number;
  extractionKeys: Array<{ name: string; type: string; description: string }>;
}

export abstract class AgentDirectory {
  /** The agent of this workspace; null for unknown, malformed or another workspace's ids. */
  abstract find(workspaceId: string, agentId: string): Promise<AgentSummary | null>;
}
