import { Module } from '@nestjs/common';
import { PlatformModule, WORKER_CONFIG_DEFAULTS } from '@outreach/platform';
import { AgentsWorkerModule } from '@outreach/agents';
import { CampaignsWorkerModule } from '@outreach/campaigns';
import { EngineWorkerModule } from '@outreach/engine';
import { CallEventsModule, CallsAnalysisWorkerModule } from '@outreach/calls';
import { ResultsWorkerModule } from '@outreach/results';
import { NotificationsWorkerModule } from '@outreach/notifications';
import { ExportsWorkerModule } from '@outreach/exports';
import { CrmWorkerModule } from '@outreach/crm';
import { MessagingWorkerModule } from '@outreach/messaging';
import { WorkflowsWorkerModule } from '@outreach/workflows';
import { KnowledgeWorkerModule } from '@outreach/knowledge';
// No jobs of its own: loaded for its migrations, error codes and configuration keys.
import '@outreach/assist';

/**
 * The background process: the outbox relay and every module's BullMQ processors.
 * A new module with jobs adds its worker module to `imports`.
 */
@Module({
  imports: [
    PlatformModule.forRoot({ role: 'worker', configDefaults: WORKER_CONFIG_DEFAULTS }),
    AgentsWorkerModule,
    CampaignsWorkerModule,
    EngineWorkerModule,
    CallsAnalysisWorkerModule,
    CallEventsModule,
    ResultsWorkerModule,
    NotificationsWorkerModule,
    ExportsWorkerModule,
    MessagingWorkerModule,
    CrmWorkerModule,
    WorkflowsWorkerModule,
    KnowledgeWorkerModule,
  ],
})
export class WorkerModule {}
