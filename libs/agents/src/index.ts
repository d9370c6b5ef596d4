// Public surface of the agents module: what other modules and apps may use. Other modules
// import only from '@outreach/agents', never from deep paths.
import { defineMigrations } from '@outreach/platform';
export * from './agents.errors';
import { Agents1763700001000 } from './infrastructure/migrations/1763700001000-agents';

export { AgentsCoreModule, AgentsModule, AgentsWorkerModule } from './agents.module';
export { AgentDirectory, AgentSummary } from './application/agent-directory.port';
export { AgentReferenceRegistry, AgentReferenceCheck } from './application/agent-reference-registry';
export { AgentKnowledge, AgentKnowledgeSource, UnusableDocument } from './application/agent-knowledge';
export { ProvisionAgent } from './application/provision-agent.use-case';
export { CompileAgentPrompt } from './application/compile-agent-prompt.use-case';
export { AgentQueue, AgentJob, ProvisionAgentPayload } from './application/agent-jobs';
export { AGENT_STATUSES, AGENT_TYPES, AgentStatus, AgentType } from './domain/agent.types';
export { SYSTEM_VARIABLES, SystemVariable, CallFacts, callVariables, systemVariableValues } from './domain/template-variables';
export const AGENTS_MIGRATIONS = defineMigrations('agents', [Agents1763700001000]);
