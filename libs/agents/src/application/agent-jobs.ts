import type { OutboxJob } from '@outreach/core';

export enum AgentQueue {
  Agents = 'agents',
}

export enum AgentJob {
  Provision = 'provision',
}

export interface ProvisionAgentPayload {
  agentId: string;
}

export function provisionJob(agentId: string): OutboxJob {
  const payload: ProvisionAgentPayload = { agentId };
  return { queue: AgentQueue.Agents, name: AgentJob.Provision, payload: { ...payload } };
}
