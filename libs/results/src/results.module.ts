import { WorkspacesCoreModule } from '@outreach/workspaces';
import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { workerQueues } from '@outreach/platform';
import { CallsCoreModule } from '@outreach/calls';
import { CampaignsCoreModule } from '@outreach/campaigns';
import { ApiLogs } from './application/api-logs.service';
import { DeliverResults } from './application/deliver-results.use-case';
import { LeadQueries } from './application/lead-queries';
import { PushLead } from './application/push-lead.use-case';
import { RecordLeadResult } from './application/record-lead-result.use-case';
import { ResultQueries } from './application/result-queries';
import { ResultWebhooks } from './application/result-webhooks.service';
import { ResultsHousekeeping } from './application/results-housekeeping';
import { ResultsQueue } from './application/results-jobs';
import {
  ApiLogStore,
  DeliveryStore,
  FinalCallLookup,
  HostResolver,
  LeadKeyStore,
  NewLeadStatement,
  ResultStore,
  WebhookEndpointStore,
  WebhookSender,
} from './application/results.ports';
import { ApiLogMiddleware } from './http/api-log.middleware';
import { ApiLogsController } from './http/api-logs.controller';
import { LeadsController } from './http/leads.controller';
import { ResultWebhooksController } from './http/result-webhooks.controller';
import { ResultsController } from './http/results.controller';
import { CallLogFinalCallLookup } from './infrastructure/call-log.final-call-lookup';
import { DnsHostResolver } from './infrastructure/dns-host.resolver';
import { NodeHttpWebhookSender } from './infrastructure/node-http-webhook.sender';
import { ResultsProcessor } from './infrastructure/results.processor';
import { ResultsMaintenance } from './infrastructure/results-maintenance';
import { SqlApiLogStore } from './infrastructure/sql-api-log.store';
import { SqlDeliveryStore } from './infrastructure/sql-delivery.store';
import { SqlLeadKeyStore } from './infrastructure/sql-lead-key.store';
import { SqlNewLeadStatement } from './infrastructure/sql-new-lead.statement';
import { SqlResultStore } from './infrastructure/sql-result.store';
import { SqlWebhookEndpointStore } from './infrastructure/sql-webhook-endpoint.store';
import { WebhookSecretSealer } from './infrastructure/webhook-secret.sealer';
import { SqlEndpointSigningSecrets } from './infrastructure/sql-endpoint-signing-secrets';
import { LeadJourneys, LeadJourneysBinding } from './application/lead-journeys';
import { EndpointSigningSecrets, WebhookSigning } from './application/webhook-signing';

const useCases = [PushLead, LeadQueries, RecordLeadResult, ResultQueries, ResultWebhooks, DeliverResults, ResultsHousekeeping, ApiLogs, WebhookSigning];

/** Leads, results, result webhooks and API logs: no controllers, usable by api, worker and cli. */
@Module({
  imports: [CampaignsCoreModule, CallsCoreModule, WorkspacesCoreModule],
  providers: [
    ...useCases,
    WebhookSecretSealer,
    { provide: LeadKeyStore, useClass: SqlLeadKeyStore },
    { provide: NewLeadStatement, useClass: SqlNewLeadStatement },
    { provide: ResultStore, useClass: SqlResultStore },
    { provide: WebhookEndpointStore, useClass: SqlWebhookEndpointStore },
    { provide: DeliveryStore, useClass: SqlDeliveryStore },
    { provide: ApiLogStore, useClass: SqlApiLogStore },
    { provide: FinalCallLookup, useClass: CallLogFinalCallLookup },
    { provide: HostResolver, useClass: DnsHostResolver },
    { provide: WebhookSender, useClass: NodeHttpWebhookSender },
    { provide: EndpointSigningSecrets, useClass: SqlEndpointSigningSecrets },
    // Bound by the workflows module when it starts (decisions.md 37.13).
    LeadJourneysBinding,
    { provide: LeadJourneys, useExisting: LeadJourneysBinding },
  ],
  exports: [...useCases, LeadJourneysBinding, WebhookSender],
})
export class ResultsCoreModule {}

/** The HTTP face: lead push, results, result webhooks, API logs (and the API-log middleware on /v1/campaigns/…). */
@Module({
  imports: [ResultsCoreModule],
  controllers: [LeadsController, ResultsController, ResultWebhooksController, ApiLogsController],
  providers: [ApiLogMiddleware],
  exports: [ResultsCoreModule],
})
export class ResultsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(ApiLogMiddleware).forRoutes({ path: 'v1/campaigns/*path', method: RequestMethod.ALL });
  }
}

/** The worker side: queue `results` (lead results, deliveries, the sweep). */
@Module({
  imports: [ResultsCoreModule, workerQueues(ResultsQueue.Results)],
  providers: [ResultsProcessor, ResultsMaintenance],
})
export class ResultsWorkerModule {}
