import { Module, OnModuleInit } from '@nestjs/common';
import { AgentReferenceRegistry, AgentsCoreModule } from '@outreach/agents';
import { CallAnalysedBinding, CallsCoreModule } from '@outreach/calls';
import { CampaignsCoreModule, WorkflowDirectoryBinding } from '@outreach/campaigns';
import { EngineCoreModule, JourneyStepsBinding } from '@outreach/engine';
import { MessageEvents, MessagingCoreModule } from '@outreach/messaging';
import { workerQueues } from '@outreach/platform';
import { ResultsCoreModule } from '@outreach/results';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { JourneyRuns } from './application/journey-runs';
import { RunRepository, StepQueue, StepWebhooks } from './application/runs.ports';
import { RunViews } from './application/run-views';
import { WorkflowModuleDirectory } from './application/workflow-directory';
import { WorkflowQueue } from './application/workflow-jobs';
import { Workflows } from './application/workflows';
import { WorkflowFeature, WorkflowReferences, WorkflowRepository } from './application/workflows.ports';
import { RunsController } from './http/runs.controller';
import { WorkflowsController } from './http/workflows.controller';
import { BullmqStepQueue } from './infrastructure/bullmq-step-queue';
import { SqlRunRepository } from './infrastructure/persistence/sql-run.repository';
import { SqlWorkflowRepository } from './infrastructure/persistence/sql-workflow.repository';
import { SignedStepWebhooks } from './infrastructure/signed-step-webhooks';
import { WorkflowsMaintenance } from './infrastructure/workflows-maintenance';
import { WorkflowsProcessor } from './infrastructure/workflows.processor';
import { WorkspaceWorkflowFeature, WorkspaceWorkflowReferences } from './infrastructure/workspace-references';

const useCases = [Workflows, RunViews];

/** Workflows without controllers: for the API, the worker and the CLI. */
@Module({
  imports: [CampaignsCoreModule, AgentsCoreModule, MessagingCoreModule, WorkspacesCoreModule, ResultsCoreModule, CallsCoreModule],
  providers: [
    ...useCases,
    WorkflowModuleDirectory,
    { provide: WorkflowRepository, useClass: SqlWorkflowRepository },
    { provide: WorkflowReferences, useClass: WorkspaceWorkflowReferences },
    { provide: WorkflowFeature, useClass: WorkspaceWorkflowFeature },
    { provide: RunRepository, useClass: SqlRunRepository },
  ],
  exports: [...useCases, WorkflowRepository, RunRepository],
})
export class WorkflowsCoreModule implements OnModuleInit {
  constructor(
    private readonly binding: WorkflowDirectoryBinding,
    private readonly directory: WorkflowModuleDirectory,
    private readonly agentReferences: AgentReferenceRegistry,
    private readonly workflows: WorkflowRepository,
    private readonly runViews: RunViews,
  ) {}

  /**
   * Campaigns asks this module whether a journey's workflow exists and is ACTIVE (create, start);
   * agents answer 409 in_use for an agent a live workflow's call step names (decisions.md 37.11);
   * results read a lead's journey for its result (decisions.md 37.13).
   */
  onModuleInit(): void {
    this.binding.bind(this.directory);
    this.agentReferences.register((workspaceId, agentId) => this.workflows.referencesAgent(workspaceId, agentId));
    this.runViews.bindResults();
  }
}

/** The HTTP face: workflow definitions and their runs. */
@Module({ imports: [WorkflowsCoreModule], controllers: [WorkflowsController, RunsController] })
export class WorkflowsModule {}

/**
 * The worker side: the runs (step jobs on queue `workflows`, the sweep), bound into the engine's
 * JourneySteps seam so journey campaigns' dispatch, attempts and settlements reach them.
 */
@Module({
  imports: [WorkflowsCoreModule, CallsCoreModule, EngineCoreModule, MessagingCoreModule, CampaignsCoreModule, ResultsCoreModule, workerQueues(WorkflowQueue.Workflows)],
  providers: [
    JourneyRuns,
    { provide: StepQueue, useClass: BullmqStepQueue },
    { provide: StepWebhooks, useClass: SignedStepWebhooks },
    WorkflowsProcessor,
    WorkflowsMaintenance,
  ],
  exports: [JourneyRuns],
})
export class WorkflowsWorkerModule implements OnModuleInit {
  constructor(
    private readonly journeys: JourneyStepsBinding,
    private readonly analyses: CallAnalysedBinding,
    private readonly messageEvents: MessageEvents,
    private readonly runs: JourneyRuns,
  ) {}

  onModuleInit(): void {
    this.journeys.bind(this.runs);
    this.analyses.bind(this.runs);
    this.messageEvents.subscribe((event) => this.runs.messageEvent(event));
  }
}
