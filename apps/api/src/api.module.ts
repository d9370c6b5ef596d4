import { Module } from '@nestjs/common';
import { API_GLOBAL_PROVIDERS, IdempotencyModule, PlatformModule, QueuesDashboardModule } from '@outreach/platform';
import { BillingHttpModule } from '@outreach/billing';
import { DncModule } from '@outreach/dnc';
import { WorkspacesModule } from '@outreach/workspaces';
import { AgentQueue, AgentsModule } from '@outreach/agents';
import { FunctionsModule } from '@outreach/functions';
import { CampaignsModule } from '@outreach/campaigns';
import { TelephonyModule } from '@outreach/telephony';
import { ResultsModule, ResultsQueue } from '@outreach/results';
import { CallsModule, CallsQueue } from '@outreach/calls';
import { EngineQueue } from '@outreach/engine';
import { NotificationsQueue } from '@outreach/notifications';
import { ExportsModule, ExportsQueue } from '@outreach/exports';
import { WorkflowQueue, WorkflowsModule } from '@outreach/workflows';
import { CrmModule, CrmQueue } from '@outreach/crm';
import { MessagingModule, MessagingQueue } from '@outreach/messaging';
import { AssistModule } from '@outreach/assist';
import { KnowledgeModule, KnowledgeQueue } from '@outreach/knowledge';

/**
 * The HTTP process: every domain module's controllers over their application services.
 * A new module adds one line to `imports`.
 */
@Module({
  imports: [
    PlatformModule.forRoot({ role: 'api' }),
    WorkspacesModule,
    AgentsModule,
    FunctionsModule,
    TelephonyModule,
    CampaignsModule,
    IdempotencyModule,
    BillingHttpModule,
    DncModule,
    CallsModule,
    ResultsModule,
    ExportsModule,
    WorkflowsModule,
    MessagingModule,
    AssistModule,
    KnowledgeModule,
    CrmModule,
    // Bull Board at /admin/queues, only with ADMIN_TOKEN: every queue the worker's modules consume.
    QueuesDashboardModule.forRoot([AgentQueue.Agents, EngineQueue.Campaigns, EngineQueue.Attempts, EngineQueue.Outreach, CallsQueue.Calls, ResultsQueue.Results, NotificationsQueue.Notifications, ExportsQueue.Exports, MessagingQueue.Messaging, CrmQueue.Crm, KnowledgeQueue.Knowledge, WorkflowQueue.Workflows]),
  ],
  providers: [...API_GLOBAL_PROVIDERS],
})
export class ApiModule {}
