import { AppError } from '@outreach/core';
import type { CommerceOrderProps, OrderRecord } from '../domain/commerce-order';
import type { CrmConnectionProps } from '../domain/crm-connection';
import type { CrmImportProps } from '../domain/crm-import';
import type { CrmPage, CrmProviderInfo, CrmRecord, CrmSegment } from '../domain/crm-provider-info';
import type { DefaultMapping } from '../domain/field-mapping';
import type { OrderEvent, OrderNotificationProps, OrderRuleProps } from '../domain/order-rule';

/** Credentials as sent to POST /crm/connections (text members only). */
export type CrmCredentials = Readonly<Record<string, string>>;

/** What a provider tells about the account behind valid credentials. */
export interface VerifiedAccount {
  providerEmail: string;
  display: Record<string, unknown>;
  missingScopes: string[];
  webhookSecret: string | null;
  webhookTopics: { subscribed: string[]; failed: Array<{ topic: string; reason: string }> };
}

/** An inbound webhook request as received (raw bytes: the signature covers them). */
export interface WebhookRequest {
  method: string;
  /** The URL the provider called: the connection's webhookUrl. */
  url: string;
  headers: Readonly<Record<string, string | undefined>>;
  rawBody: Buffer;
  now: Date;
}

/** What a verified webhook carries: whole records, and/or ids of records to read from the CRM; a shop's orders. */
export interface WebhookDelivery {
  records: CrmRecord[];
  recordIds: string[];
  /** Order events (a shop's orders/* webhooks, the sandbox's `orders`): the order as it now is. */
  orders?: Array<{ event: OrderEvent; order: OrderRecord }>;
}

/** The signature did not verify (401, nothing stored). */
export class WebhookNotAuthentic extends Error {
  override readonly name = 'WebhookNotAuthentic';
}

/** The CRM answered 429: wait `retryAfterMs` (its Retry-After, when it sent one) and ask again. */
export class CrmRateLimited extends Error {
  override readonly name = 'CrmRateLimited';
  constructor(readonly retryAfterMs: number | null) {
    super('the CRM asked us to slow down (429)');
  }
}

/**
 * One CRM behind one port. Adapters throw AppError with the crm codes: invalid_credentials (401/403),
 * crm_resource_not_found (404), crm_upstream_unavailable (refused, timed out), provider_error with
 * upstreamStatus (other 4xx/5xx), crm_upstream_error (a 2xx the adapter cannot read); CrmRateLimited
 * on 429. Credentials never appear in their messages.
 */
export abstract class CrmProvider {
  abstract readonly info: CrmProviderInfo;
  /** Which record fields feed phone and name when no mapping says otherwise. */
  abstract readonly defaults: DefaultMapping;
  /** Largest page the CRM serves. */
  abstract readonly maxPageSize: number;
  /** Checks the credentials against the CRM (400 invalid_credentials) and describes the account. */
  abstract verify(credentials: CrmCredentials): Promise<VerifiedAccount>;
  /** 404 crm_resource_not_found for a segment the CRM does not have. */
  abstract segment(credentials: CrmCredentials, segmentId: string): Promise<CrmSegment>;
  /** One page of contacts (of a segment, or all), from `cursor` (null: the first page). */
  abstract contacts(credentials: CrmCredentials, query: { segmentId: string | null; cursor: string | null; limit: number }): Promise<CrmPage>;
  /** One contact by id; null when the CRM has none. */
  abstract contact(credentials: CrmCredentials, recordId: string): Promise<CrmRecord | null>;
  /** Verifies a webhook the provider's way (WebhookNotAuthentic) and reads its contact events. */
  abstract readWebhook(credentials: CrmCredentials, request: WebhookRequest): WebhookDelivery;
  /**
   * OAuth providers: the credentials an authorization code stands for (the token endpoint's
   * answer); 400 invalid_credentials when the provider refuses the code. API-key providers have none.
   */
  exchangeOAuthCode(_grant: { code: string; redirectUri: string }): Promise<CrmCredentials> {
    return Promise.reject(new AppError('invalid_request', { message: `${this.info.name} connects with an API key (POST /crm/connections), not OAuth` }));
  }
}

/** Every provider adapter, by slug. */
export abstract class CrmProviders {
  abstract all(): readonly CrmProvider[];
  find(slug: string): CrmProvider | null {
    return this.all().find((p) => p.info.slug === slug) ?? null;
  }
}

export abstract class CrmConnectionRepository {
  abstract insert(connection: CrmConnectionProps): Promise<void>;
  /** The workspace's connection (any status); null for unknown, malformed or another workspace's ids. */
  abstract find(workspaceId: string, id: string): Promise<CrmConnectionProps | null>;
  /** Any workspace's connection (webhooks name only the connection). */
  abstract findById(id: string): Promise<CrmConnectionProps | null>;
  abstract listActive(workspaceId: string): Promise<CrmConnectionProps[]>;
  abstract update(connection: CrmConnectionProps): Promise<void>;
}

export abstract class CrmImportRepository {
  abstract insert(job: CrmImportProps): Promise<void>;
  abstract find(workspaceId: string, campaignId: string, id: string): Promise<CrmImportProps | null>;
  /** Locked until the transaction ends (one worker moves an import at a time). */
  abstract findForUpdate(id: string): Promise<CrmImportProps | null>;
  abstract update(job: CrmImportProps): Promise<void>;
  abstract hasInProgress(workspaceId: string, campaignId: string): Promise<boolean>;
}

/** A webhook event kept until a campaign takes it (deduplicated by connection, record id and phone). */
export interface CrmWebhookEvent {
  id: string;
  workspaceId: string;
  connectionId: string;
  recordId: string;
  phoneKey: string;
  contact: { phone: string; name?: string; altPhones?: string[]; fields: Record<string, string> };
  campaignId: string | null;
  receivedAt: Date;
  deliveredAt: Date | null;
}

export abstract class CrmWebhookEventRepository {
  /** Inserts unless the connection has an event of that record and phone; false for a duplicate. */
  abstract insertIfNew(event: CrmWebhookEvent): Promise<boolean>;
  abstract markDelivered(ids: readonly string[], campaignId: string, at: Date): Promise<void>;
  /** Deferred events of the connection, oldest first, locked (SKIP LOCKED: two drainers share the work). */
  abstract takeDeferred(connectionId: string, limit: number): Promise<CrmWebhookEvent[]>;
  /** Connections with deferred events. */
  abstract connectionsWithDeferred(limit: number): Promise<Array<{ workspaceId: string; connectionId: string }>>;
  abstract countDeferred(connectionIds: readonly string[]): Promise<Map<string, number>>;
}

/** Credentials at rest. */
export abstract class CredentialSealer {
  abstract seal(credentials: CrmCredentials, connectionId: string): string;
  abstract open(sealed: string, connectionId: string): CrmCredentials;
}

/** Shop orders told by webhooks (one row per order: updates overwrite it). */
export abstract class CommerceOrderRepository {
  /** Returns the stored row's id (the existing one when the order was known). */
  abstract upsert(order: CommerceOrderProps): Promise<string>;
  abstract findById(id: string): Promise<CommerceOrderProps | null>;
  /** The workspace's orders, newest first, by page number (1-based). */
  abstract page(workspaceId: string, page: { page: number; limit: number }): Promise<{ items: CommerceOrderProps[]; total: number }>;
  /** The connection's orders placed at or after `from`. */
  abstract since(connectionId: string, from: Date): Promise<CommerceOrderProps[]>;
}

/** Order-notification rules (one per connection and event). */
export abstract class OrderRuleRepository {
  /** False when the connection has a rule for that event already. */
  abstract insert(rule: OrderRuleProps): Promise<boolean>;
  abstract find(workspaceId: string, connectionId: string, id: string): Promise<OrderRuleProps | null>;
  abstract findById(id: string): Promise<OrderRuleProps | null>;
  abstract list(workspaceId: string, connectionId: string): Promise<OrderRuleProps[]>;
  abstract enabledFor(connectionId: string, event: OrderEvent): Promise<OrderRuleProps[]>;
  /** False when the change would give the connection a second rule for an event. */
  abstract update(rule: OrderRuleProps): Promise<boolean>;
  abstract delete(id: string): Promise<void>;
}

/** One notification per (rule, order): written with the order event, settled by the worker. */
export abstract class OrderNotificationRepository {
  /** False when the rule has notified (or is notifying) that order already. */
  abstract insertIfNew(notification: OrderNotificationProps): Promise<boolean>;
  abstract findForUpdate(id: string): Promise<OrderNotificationProps | null>;
  abstract update(notification: OrderNotificationProps): Promise<void>;
  abstract ofOrders(orderIds: readonly string[]): Promise<OrderNotificationProps[]>;
}
