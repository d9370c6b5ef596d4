import { Module } from '@nestjs/common';
import { FunctionsCoreModule } from '@outreach/functions';
import { workerQueues } from '@outreach/platform';
import { TelephonyCoreModule } from '@outreach/telephony';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { AgentDirectory } from './application/agent-directory.port';
import { RepositoryAgentDirectory } from './application/agent-directory';
import { AgentQueue } from './application/agent-jobs';
import { AgentQueries } from './application/agent-queries';
import { AgentKnowledge } from './application/agent-knowledge';
import { AgentReferenceChecks } from './application/agent-reference-checks';
import { AgentReferenceRegistry } from './application/agent-reference-registry';
import { AgentCatalogue, AgentRepository, VoiceProvider } from './application/agent.ports';
import { CompileAgentPrompt } from './application/compile-agent-prompt.use-case';
import { AgentQuota } from './application/agent-quota';
import { CreateAgent } from './application/create-agent.use-case';
import { DeleteAgent } from './application/delete-agent.use-case';
import { DuplicateAgent } from './application/duplicate-agent.use-case';
import { ProvisionAgent } from './application/provision-agent.use-case';
import { UpdateAgent } from './application/update-agent.use-case';
import { VoiceLibrary } from './application/voice-library';
import { AgentsController, VoicesController } from './http/agents.controller';
import { InboundNumbersController } from './http/inbound-numbers.controller';
import { AssignInboundNumber } from './application/assign-inbound-number.use-case';
import { AgentsProcessor } from './infrastructure/agents.processor';
import { HostedVoiceProvider } from './infrastructure/hosted-voice-provider';
import { StaticAgentCatalogue } from './infrastructure/static-agent-catalogue';
import { SqlAgentRepository } from './infrastructure/persistence/sql-agent.repository';

const useCases = [
  CreateAgent,
  AgentQuota,
  UpdateAgent,
  DuplicateAgent,
  DeleteAgent,
  AgentQueries,
  ProvisionAgent,
  CompileAgentPrompt,
  VoiceLibrary,
  AgentReferenceChecks,
  AssignInboundNumber,
];

/** Core of agents: no controllers, usable by api, worker and cli, and by modules that use agents. */
@Module({
  imports: [WorkspacesCoreModule, FunctionsCoreModule, TelephonyCoreModule],
  providers: [
    ...useCases,
    AgentReferenceRegistry,
    AgentKnowledge,
    { provide: AgentRepository, useClass: SqlAgentRepository },
    { provide: AgentDirectory, useClass: RepositoryAgentDirectory },
    { provide: AgentCatalogue, useClass: StaticAgentCatalogue },
    { provide: VoiceProvider, useClass: HostedVoiceProvider },
  ],
  exports: [...useCases, AgentDirectory, AgentReferenceRegistry, AgentKnowledge],
})
export class AgentsCoreModule {}

/** The HTTP face of agents: /agents, /v1/agents, /voices, /background-audio, and PUT /phone-numbers/{id}/inbound-agent. */
@Module({ imports: [AgentsCoreModule], controllers: [AgentsController, VoicesController, InboundNumbersController], exports: [AgentsCoreModule] })
export class AgentsModule {}

/** The worker side: the `agents` queue and its processor (provisioning). */
@Module({
  imports: [AgentsCoreModule, workerQueues(AgentQueue.Agents)],
  providers: [AgentsProcessor],
})
export class AgentsWorkerModule {}
