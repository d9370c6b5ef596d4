import { Module, OnModuleInit } from '@nestjs/common';
import { BillingModule } from '@outreach/billing';
import { CampaignsCoreModule, CrmDirectoryBinding } from '@outreach/campaigns';
import { MessagingCoreModule } from '@outreach/messaging';
import { workerQueues } from '@outreach/platform';
import { CommerceOrders } from './application/commerce-orders.service';
import {
  CommerceOrderRepository,
  CredentialSealer,
  CrmConnectionRepository,
  CrmImportRepository,
  CrmProviders,
  CrmWebhookEventRepository,
  OrderNotificationRepository,
  OrderRuleRepository,
} from './application/crm.ports';
import { CrmConnections } from './application/crm-connections.service';
import { CrmModuleDirectory } from './application/crm-directory';
import { CrmImports } from './application/crm-imports.service';
import { CrmQueue } from './application/crm-jobs';
import { CrmWebhooks } from './application/crm-webhooks.service';
import { OrderNotifications } from './application/order-notifications.service';
import { OrderRules } from './application/order-rules.service';
import { CommerceController } from './http/commerce.controller';
import { CrmImportsController } from './http/crm-imports.controller';
import { CrmWebhooksController } from './http/crm-webhooks.controller';
import { CrmController } from './http/crm.controller';
import { AesCredentialSealer } from './infrastructure/credential.sealer';
import { CrmMaintenance } from './infrastructure/crm-maintenance';
import { CrmProcessor } from './infrastructure/crm.processor';
import {
  SqlCommerceOrderRepository,
  SqlCrmConnectionRepository,
  SqlCrmImportRepository,
  SqlCrmWebhookEventRepository,
  SqlOrderNotificationRepository,
  SqlOrderRuleRepository,
} from './infrastructure/persistence/sql-crm.repositories';
import { AdapterCrmProviders } from './infrastructure/providers/crm-providers.registry';
import { HubspotCrmProvider } from './infrastructure/providers/hubspot.provider';
import { PipedriveCrmProvider } from './infrastructure/providers/pipedrive.provider';
import { SandboxCrmProvider } from './infrastructure/providers/sandbox-crm.provider';
import { ShopifyCrmProvider } from './infrastructure/providers/shopify.provider';

const useCases = [CrmConnections, CrmImports, CrmWebhooks, CommerceOrders, OrderRules, OrderNotifications];

/** Connections, imports and webhooks without controllers: for the API, the worker and the CLI. */
@Module({
  imports: [CampaignsCoreModule, MessagingCoreModule, BillingModule],
  providers: [
    ...useCases,
    CrmModuleDirectory,
    SandboxCrmProvider,
    HubspotCrmProvider,
    ShopifyCrmProvider,
    PipedriveCrmProvider,
    { provide: CrmProviders, useClass: AdapterCrmProviders },
    { provide: CrmConnectionRepository, useClass: SqlCrmConnectionRepository },
    { provide: CrmImportRepository, useClass: SqlCrmImportRepository },
    { provide: CrmWebhookEventRepository, useClass: SqlCrmWebhookEventRepository },
    { provide: CommerceOrderRepository, useClass: SqlCommerceOrderRepository },
    { provide: OrderRuleRepository, useClass: SqlOrderRuleRepository },
    { provide: OrderNotificationRepository, useClass: SqlOrderNotificationRepository },
    { provide: CredentialSealer, useClass: AesCredentialSealer },
  ],
  exports: [...useCases, CrmProviders],
})
export class CrmCoreModule implements OnModuleInit {
  constructor(
    private readonly binding: CrmDirectoryBinding,
    private readonly directory: CrmModuleDirectory,
  ) {}

  /** Campaigns asks this module about connections (campaign create) and imports (campaign delete). */
  onModuleInit(): void {
    this.binding.bind(this.directory);
  }
}

/** The HTTP face: providers, connections, mappings, imports, inbound webhooks, commerce orders. */
@Module({ imports: [CrmCoreModule], controllers: [CrmController, CrmImportsController, CrmWebhooksController, CommerceController] })
export class CrmModule {}

/** The worker side: queue `crm` (imports, order notifications) and the deferred-webhook drain. */
@Module({
  imports: [CrmCoreModule, workerQueues(CrmQueue.Crm)],
  providers: [CrmProcessor, CrmMaintenance],
})
export class CrmWorkerModule {}
