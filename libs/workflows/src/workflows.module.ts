import { Module, OnModuleInit } from '@nestjs/common';
import { AgentReferenceRegistry, AgentsCoreModule } from '@outreach/agents';
import { CampaignsCoreModule, WorkflowDirectoryBinding } from '@outreach/campaigns';
import { MessagingCoreModule } from '@outreach/messaging';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { WorkflowModuleDirectory } from './application/workflow-directory';
import { Workflows } from './application/workflows';
import { WorkflowFeature, WorkflowReferences, WorkflowRepository } from './application/workflows.ports';
import { WorkflowsController } from './http/workflows.controller';
import { SqlWorkflowRepository } from './infrastructure/persistence/sql-workflow.repository';
import { WorkspaceWorkflowFeature, WorkspaceWorkflowReferences } from './infrastructure/workspace-references';

const useCases = [Workflows];

/** Workflows without controllers: for the API, the worker and the CLI. */
@Module({
  imports: [CampaignsCoreModule, AgentsCoreModule, MessagingCoreModule, WorkspacesCoreModule],
  providers: [
    ...useCases,
    WorkflowModuleDirectory,
    { provide: WorkflowRepository, useClass: SqlWorkflowRepository },
    { provide: WorkflowReferences, useClass: WorkspaceWorkflowReferences },
    { provide: WorkflowFeature, useClass: WorkspaceWorkflowFeature },
  ],
  exports: useCases,
})
export class WorkflowsCoreModule implements OnModuleInit {
  constructor(
    private readonly binding: WorkflowDirectoryBinding,
    private readonly directory: WorkflowModuleDirectory,
    private readonly agentReferences: AgentReferenceRegistry,
    private readonly workflows: WorkflowRepository,
  ) {}

  /**
   * Campaigns asks this module whether a journey's workflow exists and is ACTIVE (create, start);
   * agents answer 409 in_use for an agent a live workflow's call step names (decisions.md 37.11).
   */
  onModuleInit(): void {
    this.binding.bind(this.directory);
    this.agentReferences.register((workspaceId, agentId) => this.workflows.referencesAgent(workspaceId, agentId));
  }
}

/** The HTTP face: workflow definitions. */
@Module({ imports: [WorkflowsCoreModule], controllers: [WorkflowsController] })
export class WorkflowsModule {}

/** The worker side (binds the directory so campaign starts in the worker see real workflows). */
@Module({ imports: [WorkflowsCoreModule] })
export class WorkflowsWorkerModule {}
