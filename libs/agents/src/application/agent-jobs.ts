import type { OutboxJob } from '@outreach/core';

export enum AgentQueue {
  Agents = 'agents',
}

export enum AgentJob {
  Provision = 'provision',
  /** An ACTIVE agent was edited: its config is pushed to the provider that hosts it (decisions.md 27.4). */
  Sync = 'sync',
}

export interface ProvisionAgentPayload {
  agentId: string;
}

export function provisionJob(agentId: string): OutboxJob {
  const payload: ProvisionAgentPayload = { agentId };
  return { queue: AgentQueue.Agents, name: AgentJob.Provision, payload: { ...payload } };
}

/** The push of an edited agent's config to its provider; one per edit (its id names the edit). */
export function syncJob(agentId: string, editedAt: Date): OutboxJob {
  const payload: ProvisionAgentPayload = { agentId };
  return { queue: AgentQueue.Agents, name: AgentJob.Sync, payload: { ...payload }, jobId: `agent-sync-${agentId}-${editedAt.getTime()}` };
}
