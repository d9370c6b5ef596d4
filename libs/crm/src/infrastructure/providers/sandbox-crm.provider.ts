import { Injectable } from '@nestjs/common';
import { AppError } from '@outreach/core';
import { CrmCredentials, CrmProvider, VerifiedAccount, WebhookDelivery, WebhookRequest } from '../../application/crm.ports';
import { OrderRecord } from '../../domain/commerce-order';
import { CrmPage, CrmProviderInfo, CrmRecord, CrmSegment } from '../../domain/crm-provider-info';
import { ORDER_EVENTS, OrderEvent } from '../../domain/order-rule';
import { isObject, asText } from './crm-http';
import { assertSignature, hmacSha256, parseJsonBody, webhookSecret } from './signatures';

/** Contacts in the whole sandbox CRM; segment `seg-<n>` holds contacts 1..n. */
export const SANDBOX_CONTACTS = 1_000_000;
/** The list an import without a segment reads (contacts 1..100). */
export const SANDBOX_DEFAULT_SIZE = 100;
const SEGMENT = /^seg-([1-9][0-9]{0,6})$/;
const RECORD = /^sbx-([1-9][0-9]{0,6})$/;
const CITIES = ['Austin', 'Boston', 'Chicago', 'Denver', 'Seattle'];
const PLANS = ['basic', 'pro', 'enterprise'];

/** Contact i (1-based) of the sandbox: every field a function of i (decisions.md 31). */
export function sandboxRecord(i: number): CrmRecord {
  return {
    id: `sbx-${i}`,
    properties: {
      firstname: 'Lead',
      lastname: String(i),
      email: `lead${i}@sandbox-crm.example`,
      phone: `+1415${String(2_000_000 + i).padStart(7, '0')}`,
      company: `Company ${i % 50}`,
      city: CITIES[i % CITIES.length],
      plan: PLANS[i % PLANS.length],
    },
  };
}

/**
 * The deterministic sandbox CRM (decisions.md 31.2), default for development and the acceptance path:
 * credentials `{apiKey: "valid"}` (anything else 400 invalid_credentials), optionally `webhookSecret`;
 * segments `seg-<n>` (1 ≤ n ≤ 1,000,000) hold contacts 1..n, any other id 404 crm_resource_not_found;
 * cursors are offsets; webhooks `{records: [{id, properties}], orders: [{event, id, …}]}` signed with
 * hex HMAC-SHA256 of the raw body in `x-sandbox-signature` (orders: decisions.md 31.14).
 */
@Injectable()
export class SandboxCrmProvider extends CrmProvider {
  readonly info: CrmProviderInfo = {
    slug: 'sandbox',
    name: 'Sandbox CRM',
    authType: 'API_KEY',
    supportsWebhooks: true,
    capabilities: { contacts: true, segments: true, orders: true },
    credentialFields: ['apiKey', 'webhookSecret'],
    fields: ['firstname', 'lastname', 'email', 'phone', 'company', 'city', 'plan'],
  };
  readonly defaults = { phone: ['phone'], name: ['firstname', 'lastname'] };
  readonly maxPageSize = 500;

  async verify(credentials: CrmCredentials): Promise<VerifiedAccount> {
    if (credentials.apiKey !== 'valid') throw new AppError('invalid_credentials', { message: 'the sandbox CRM accepts only the API key "valid"' });
    const hasSecret = typeof credentials.webhookSecret === 'string' && credentials.webhookSecret !== '';
    return {
      providerEmail: 'owner@sandbox-crm.example',
      display: { accountName: 'Sandbox CRM', contacts: SANDBOX_CONTACTS },
      missingScopes: [],
      webhookSecret: hasSecret ? credentials.webhookSecret : null,
      webhookTopics: hasSecret
        ? { subscribed: ['contact.created', 'contact.updated'], failed: [] }
        : { subscribed: [], failed: [{ topic: 'contact.created', reason: 'no webhook secret' }, { topic: 'contact.updated', reason: 'no webhook secret' }] },
    };
  }

  async segment(credentials: CrmCredentials, segmentId: string): Promise<CrmSegment> {
    await this.verify(credentials);
    return { id: segmentId, name: `Sandbox segment of ${segmentSize(segmentId)}`, size: segmentSize(segmentId) };
  }

  async contacts(credentials: CrmCredentials, query: { segmentId: string | null; cursor: string | null; limit: number }): Promise<CrmPage> {
    await this.verify(credentials);
    const size = query.segmentId ? segmentSize(query.segmentId) : SANDBOX_DEFAULT_SIZE;
    const offset = query.cursor === null ? 0 : Number(query.cursor);
    if (!Number.isInteger(offset) || offset < 0) throw new AppError('crm_upstream_error', { message: 'the sandbox CRM does not know that cursor' });
    const end = Math.min(size, offset + query.limit);
    const records: CrmRecord[] = [];
    for (let i = offset + 1; i <= end; i++) records.push(sandboxRecord(i));
    return { records, nextCursor: end < size ? String(end) : null, total: size };
  }

  async contact(credentials: CrmCredentials, recordId: string): Promise<CrmRecord | null> {
    await this.verify(credentials);
    const m = RECORD.exec(recordId);
    return m && Number(m[1]) <= SANDBOX_CONTACTS ? sandboxRecord(Number(m[1])) : null;
  }

  readWebhook(credentials: CrmCredentials, request: WebhookRequest): WebhookDelivery {
    const secret = webhookSecret(credentials, 'webhookSecret');
    assertSignature(request.headers['x-sandbox-signature'], hmacSha256(secret, request.rawBody, 'hex'), 'x-sandbox-signature');
    const body = parseJsonBody(request.rawBody);
    const items = isObject(body) && Array.isArray(body.records) ? body.records : [];
    const records: CrmRecord[] = [];
    for (const item of items) {
      if (!isObject(item) || typeof item.id !== 'string' || !isObject(item.properties)) continue;
      records.push({ id: item.id, properties: Object.fromEntries(Object.entries(item.properties).map(([k, v]) => [k, asText(v)])) });
    }
    const orders = (isObject(body) && Array.isArray(body.orders) ? body.orders : []).map(readSandboxOrder).filter((o) => o !== null);
    return { records, recordIds: [], orders };
  }
}

/** A sandbox order event: `{event, id, name?, customerName?, phone?, email?, currency?, totalValue, cod?, financialStatus?, fulfillmentStatus?, orderedAt}`. */
function readSandboxOrder(item: unknown): { event: OrderEvent; order: OrderRecord } | null {
  if (!isObject(item) || !(ORDER_EVENTS as readonly unknown[]).includes(item.event)) return null;
  const id = asText(item.id);
  const total = Number(item.totalValue);
  const orderedAt = new Date(asText(item.orderedAt) ?? NaN);
  if (!id || !Number.isFinite(total) || total < 0 || Number.isNaN(orderedAt.getTime())) return null;
  return {
    event: item.event as OrderEvent,
    order: {
      externalId: id,
      name: asText(item.name) ?? id,
      customerName: asText(item.customerName),
      email: asText(item.email),
      phone: asText(item.phone),
      currency: asText(item.currency) ?? 'USD',
      totalValue: total,
      financialStatus: asText(item.financialStatus),
      fulfillmentStatus: asText(item.fulfillmentStatus),
      cod: item.cod === true,
      orderedAt,
    },
  };
}

function segmentSize(segmentId: string): number {
  const m = SEGMENT.exec(segmentId);
  const n = m ? Number(m[1]) : 0;
  if (n < 1 || n > SANDBOX_CONTACTS) throw new AppError('crm_resource_not_found', { message: `the sandbox CRM has no segment ${segmentId} (seg-<n>, 1 ≤ n ≤ ${SANDBOX_CONTACTS})` });
  return n;
}
