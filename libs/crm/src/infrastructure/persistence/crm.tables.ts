import { column, defineTable } from '@outreach/platform';
import type { CommerceOrderProps } from '../../domain/commerce-order';
import type { CrmWebhookEvent } from '../../application/crm.ports';
import type { CrmConnectionProps, CrmConnectionStatus, WebhookTopics } from '../../domain/crm-connection';
import type { CrmImportCounts, CrmImportProps, CrmImportStatus } from '../../domain/crm-import';
import type { FieldMapping } from '../../domain/field-mapping';
import type { OrderEvent, OrderNotificationProps, OrderNotificationStatus, OrderPresetName, OrderRuleProps } from '../../domain/order-rule';

/** `crm_connections` (migration 1763700010000). */
export const CRM_CONNECTIONS = defineTable<CrmConnectionProps>('crm_connections', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  slug: column.text('slug'),
  status: column.text<CrmConnectionStatus>('status'),
  providerEmail: column.text('provider_email'),
  display: column.json<Record<string, unknown>>('display'),
  sealedCredentials: column.text('sealed_credentials'),
  hasWebhookSecret: column.bool('has_webhook_secret'),
  mappings: column.json<FieldMapping[]>('mappings'),
  missingScopes: column.json<string[]>('missing_scopes'),
  webhookTopics: column.json<WebhookTopics>('webhook_topics'),
  connectedAt: column.timestamp('connected_at'),
  disconnectedAt: column.nullableTimestamp('disconnected_at'),
});

/** `crm_imports` (migration 1763700010000). */
export const CRM_IMPORTS = defineTable<CrmImportProps>('crm_imports', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  campaignId: column.uuid('campaign_id'),
  connectionId: column.uuid('connection_id'),
  segmentId: column.nullableText('segment_id'),
  status: column.text<CrmImportStatus>('status'),
  cursor: column.nullableText('cursor'),
  pages: column.int('pages'),
  counts: column.json<CrmImportCounts>('counts'),
  total: column.nullableInt('total'),
  failures: column.int('failures'),
  error: column.nullableText('error'),
  createdAt: column.timestamp('created_at'),
  startedAt: column.nullableTimestamp('started_at'),
  finishedAt: column.nullableTimestamp('finished_at'),
  updatedAt: column.timestamp('updated_at'),
});

/** `crm_webhook_events` (migration 1763700010000). */
export const CRM_WEBHOOK_EVENTS = defineTable<CrmWebhookEvent>('crm_webhook_events', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  connectionId: column.uuid('connection_id'),
  recordId: column.text('record_id'),
  phoneKey: column.text('phone_key'),
  contact: column.json<CrmWebhookEvent['contact']>('contact'),
  campaignId: column.nullableUuid('campaign_id'),
  receivedAt: column.timestamp('received_at'),
  deliveredAt: column.nullableTimestamp('delivered_at'),
});

/** `commerce_orders` (migration 1763700010001). */
export const COMMERCE_ORDERS = defineTable<CommerceOrderProps>('commerce_orders', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  connectionId: column.uuid('connection_id'),
  externalId: column.text('external_id'),
  name: column.text('name'),
  customerName: column.nullableText('customer_name'),
  email: column.nullableText('email'),
  phone: column.nullableText('phone'),
  currency: column.text('currency'),
  totalValue: column.double('total_value'),
  financialStatus: column.nullableText('financial_status'),
  fulfillmentStatus: column.nullableText('fulfillment_status'),
  cod: column.bool('cod'),
  orderedAt: column.timestamp('ordered_at'),
  receivedAt: column.timestamp('received_at'),
  updatedAt: column.timestamp('updated_at'),
});

/** `crm_order_rules` (migration 1763700011500). */
export const CRM_ORDER_RULES = defineTable<OrderRuleProps>('crm_order_rules', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  connectionId: column.uuid('connection_id'),
  event: column.text<OrderEvent>('event'),
  templateId: column.uuid('template_id'),
  preset: column.nullableText<OrderPresetName>('preset'),
  enabled: column.bool('enabled'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});

/** `crm_order_notifications` (migration 1763700011500). */
export const CRM_ORDER_NOTIFICATIONS = defineTable<OrderNotificationProps>('crm_order_notifications', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  connectionId: column.uuid('connection_id'),
  ruleId: column.uuid('rule_id'),
  orderId: column.uuid('order_id'),
  event: column.text<OrderEvent>('event'),
  status: column.text<OrderNotificationStatus>('status'),
  messageId: column.nullableUuid('message_id'),
  reason: column.nullableText('reason'),
  costMinor: column.bigint('cost_minor'),
  createdAt: column.timestamp('created_at'),
  attemptedAt: column.nullableTimestamp('attempted_at'),
});
