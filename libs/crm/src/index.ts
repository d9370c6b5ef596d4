// Public surface of the crm module (issue 14): providers, connections, imports, inbound webhooks, commerce.
import { defineMigrations } from '@outreach/platform';
export * from './crm.errors';
export * from './crm.config';
import { Crm1763700010000 } from './infrastructure/migrations/1763700010000-crm';
import { CommerceOrders1763700010001 } from './infrastructure/migrations/1763700010001-commerce-orders';
import { OrderRules1763700011500 } from './infrastructure/migrations/1763700011500-order-rules';

export { CrmCoreModule, CrmModule, CrmWorkerModule } from './crm.module';
export { CrmJob, CrmQueue, crmImportJob, orderNotificationJob } from './application/crm-jobs';
export { CrmConnections, CrmConnectionView } from './application/crm-connections.service';
export { CrmImports, CrmImportView } from './application/crm-imports.service';
export { CrmWebhooks, CrmWebhookReceipt } from './application/crm-webhooks.service';
export { CommerceOrders, CommerceOrderView } from './application/commerce-orders.service';
export { OrderUpdatesSummary, NotifiedMessage, summarise, orderPage } from './domain/commerce-order';
export { OrderRules, OrderRuleView } from './application/order-rules.service';
export { OrderNotifications } from './application/order-notifications.service';
export { ORDER_EVENTS, OrderEvent, ORDER_PRESETS, ORDER_PRESET_NAMES, OrderPresetName } from './domain/order-rule';
export { CredentialSealer, CrmProvider, CrmProviders, CrmCredentials, CrmRateLimited, WebhookNotAuthentic } from './application/crm.ports';
export { CrmProviderInfo, CrmRecord, CrmPage, CrmSegment } from './domain/crm-provider-info';
export { FieldMapping, mapRecord, assertMappings } from './domain/field-mapping';
export { sandboxRecord, SANDBOX_CONTACTS } from './infrastructure/providers/sandbox-crm.provider';
export { HUBSPOT_MAX_WEBHOOK_AGE_MS } from './infrastructure/providers/hubspot.provider';
export { SHOPIFY_API_VERSION } from './infrastructure/providers/shopify.provider';
export const CRM_MIGRATIONS = defineMigrations('crm', [Crm1763700010000, CommerceOrders1763700010001, OrderRules1763700011500]);
