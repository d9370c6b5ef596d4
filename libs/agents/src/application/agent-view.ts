import { Agent, PromptSource } from '../domain/agent.aggregate';
import { AgentSettings, AgentStatus } from '../domain/agent.types';
import { SYSTEM_VARIABLES } from '../domain/template-variables';

/** The agent as the API shows it (spec "Agent response" plus every stored field). */
export interface AgentView extends AgentSettings {
  id: string;
  status: AgentStatus;
  promptSource: PromptSource;
  variables: string[];
  systemVariables: string[];
  provisionedAt: string | null;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function agentView(agent: Agent): AgentView {
  const p = agent.toProps();
  return {
    id: p.id,
    ...agent.settings(),
    status: p.status,
    promptSource: p.promptSource,
    variables: agent.variables(),
    systemVariables: [...SYSTEM_VARIABLES],
    provisionedAt: p.provisionedAt?.toISOString() ?? null,
    archivedAt: p.archivedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
