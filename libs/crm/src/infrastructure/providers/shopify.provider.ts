import { Injectable } from '@nestjs/common';
import { AppConfig, AppError } from '@outreach/core';
import { CrmCredentials, CrmProvider, VerifiedAccount, WebhookDelivery, WebhookRequest } from '../../application/crm.ports';
import { OrderRecord } from '../../domain/commerce-order';
import { SHOPIFY_ORDER_EVENTS } from '../../domain/order-rule';
import { CrmPage, CrmProviderInfo, CrmRecord, CrmSegment } from '../../domain/crm-provider-info';
import { asText, credential, crmRequest, isObject, unexpected } from './crm-http';
import { assertSignature, hmacSha256, parseJsonBody, webhookSecret } from './signatures';

const NAME = 'Shopify';
export const SHOPIFY_API_VERSION = '2024-10';
const FIELDS = ['first_name', 'last_name', 'email', 'phone', 'address_phone', 'tags', 'city', 'country', 'orders_count', 'total_spent'];
const REQUIRED_SCOPES = ['read_customers', 'read_orders'];
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;
const CUSTOMER_TOPICS = new Set(['customers/create', 'customers/update']);
const COD_GATEWAY = /cash on delivery|\bcod\b/i;

/**
 * Shopify (Admin API access token in `X-Shopify-Access-Token`): customers from
 * GET /admin/api/2024-10/customers.json with cursor paging by the `Link` header's
 * `rel="next"` page_info; saved customer searches as segments
 * (/customer_saved_searches/{id}/customers.json, same paging); webhooks `customers/create` and
 * `customers/update` signed with `X-Shopify-Hmac-Sha256` = base64 HMAC-SHA256 of the app's secret
 * over the raw body. Credentials: `shopDomain` (<shop>.myshopify.com), `accessToken`, and
 * `webhookSecret` for webhooks. Orders arrive by the orders/* webhooks (GET /commerce/orders).
 */
@Injectable()
export class ShopifyCrmProvider extends CrmProvider {
  readonly info: CrmProviderInfo = {
    slug: 'shopify',
    name: NAME,
    authType: 'API_KEY',
    supportsWebhooks: true,
    capabilities: { contacts: true, segments: true, orders: true },
    credentialFields: ['shopDomain', 'accessToken', 'webhookSecret'],
    fields: FIELDS,
  };
  readonly defaults = { phone: ['phone', 'address_phone'], name: ['first_name', 'last_name'] };
  readonly maxPageSize = 250;

  constructor(private readonly config: AppConfig) {
    super();
  }

  async verify(credentials: CrmCredentials): Promise<VerifiedAccount> {
    const res = await this.request(credentials, '/shop.json');
    const shop = isObject(res.body) && isObject(res.body.shop) ? res.body.shop : null;
    if (!shop) throw unexpected(NAME, 'shop');
    const scopes = await crmRequest(NAME, `${this.origin(credentials)}/admin/oauth/access_scopes.json`, this.init(credentials));
    const handles = isObject(scopes.body) && Array.isArray(scopes.body.access_scopes) ? scopes.body.access_scopes.map((s) => (isObject(s) ? s.handle : null)) : [];
    const hasSecret = !!credentials.webhookSecret;
    return {
      providerEmail: asText(shop.email) ?? '',
      display: { shopName: asText(shop.name), domain: asText(shop.domain), myshopifyDomain: asText(shop.myshopify_domain), currency: asText(shop.currency) },
      missingScopes: REQUIRED_SCOPES.filter((s) => !handles.includes(s)),
      webhookSecret: hasSecret ? credentials.webhookSecret : null,
      webhookTopics: hasSecret
        ? { subscribed: ['customers/create', 'customers/update'], failed: [] }
        : { subscribed: [], failed: [{ topic: 'customers/create', reason: 'no webhook secret to verify signatures' }] },
    };
  }

  async segment(credentials: CrmCredentials, segmentId: string): Promise<CrmSegment> {
    if (!/^[0-9]{1,20}$/.test(segmentId)) throw new AppError('crm_resource_not_found', { message: `Shopify saved-search ids are numbers, not ${JSON.stringify(segmentId)}` });
    const res = await this.request(credentials, `/customer_saved_searches/${segmentId}.json`);
    const search = isObject(res.body) && isObject(res.body.customer_saved_search) ? res.body.customer_saved_search : null;
    if (!search) throw unexpected(NAME, 'saved search');
    return { id: segmentId, name: asText(search.name) ?? segmentId, size: null };
  }

  async contacts(credentials: CrmCredentials, query: { segmentId: string | null; cursor: string | null; limit: number }): Promise<CrmPage> {
    const path = query.segmentId ? `/customer_saved_searches/${encodeURIComponent(query.segmentId)}/customers.json` : '/customers.json';
    const params = `limit=${query.limit}${query.cursor ? `&page_info=${encodeURIComponent(query.cursor)}` : ''}`;
    const res = await this.request(credentials, `${path}?${params}`);
    if (!isObject(res.body) || !Array.isArray(res.body.customers)) throw unexpected(NAME, 'customers page');
    const records = res.body.customers.map((c) => {
      const record = readCustomer(c);
      if (!record) throw unexpected(NAME, 'customer in a page');
      return record;
    });
    return { records, nextCursor: nextPageInfo(res.headers.get('link')), total: null };
  }

  async contact(credentials: CrmCredentials, recordId: string): Promise<CrmRecord | null> {
    if (!/^[0-9]{1,20}$/.test(recordId)) return null;
    const res = await crmRequest(NAME, `${this.base(credentials)}/customers/${recordId}.json`, { ...this.init(credentials), allow: [404] });
    if (res.status === 404) return null;
    return readCustomer(isObject(res.body) ? res.body.customer : null);
  }

  readWebhook(credentials: CrmCredentials, request: WebhookRequest): WebhookDelivery {
    const secret = webhookSecret(credentials, 'webhookSecret');
    assertSignature(request.headers['x-shopify-hmac-sha256'], hmacSha256(secret, request.rawBody, 'base64'), 'X-Shopify-Hmac-Sha256');
    const topic = request.headers['x-shopify-topic'] ?? '';
    const event = Object.hasOwn(SHOPIFY_ORDER_EVENTS, topic) ? SHOPIFY_ORDER_EVENTS[topic] : undefined;
    if (event) {
      const order = readOrder(parseJsonBody(request.rawBody));
      return { records: [], recordIds: [], orders: order ? [{ event, order }] : [] };
    }
    if (!CUSTOMER_TOPICS.has(topic)) return { records: [], recordIds: [] };
    const record = readCustomer(parseJsonBody(request.rawBody));
    return { records: record ? [record] : [], recordIds: [] };
  }

  private origin(credentials: CrmCredentials): string {
    const shop = credential(credentials, 'shopDomain').toLowerCase();
    if (!SHOP_DOMAIN.test(shop)) throw new AppError('invalid_credentials', { message: 'credentials.shopDomain must be <shop>.myshopify.com' });
    return this.config.crmShopifyApiUrl ?? `https://${shop}`;
  }

  private base(credentials: CrmCredentials): string {
    return `${this.origin(credentials)}/admin/api/${SHOPIFY_API_VERSION}`;
  }

  private init(credentials: CrmCredentials) {
    return { headers: { 'x-shopify-access-token': credential(credentials, 'accessToken') }, timeoutMs: this.config.crmHttpTimeoutMs };
  }

  private request(credentials: CrmCredentials, path: string) {
    return crmRequest(NAME, `${this.base(credentials)}${path}`, this.init(credentials));
  }
}

function readCustomer(value: unknown): CrmRecord | null {
  if (!isObject(value)) return null;
  const id = asText(value.id);
  if (!id) return null;
  const address = isObject(value.default_address) ? value.default_address : {};
  return {
    id,
    properties: {
      first_name: asText(value.first_name),
      last_name: asText(value.last_name),
      email: asText(value.email),
      phone: asText(value.phone),
      address_phone: asText(address.phone),
      tags: asText(value.tags),
      city: asText(address.city),
      country: asText(address.country),
      orders_count: asText(value.orders_count),
      total_spent: asText(value.total_spent),
    },
  };
}

/** An order of an orders/* webhook (the order resource itself). */
function readOrder(value: unknown): OrderRecord | null {
  if (!isObject(value)) return null;
  const id = asText(value.id);
  const total = Number(asText(value.total_price) ?? NaN);
  const orderedAt = new Date(asText(value.created_at) ?? NaN);
  if (!id || !Number.isFinite(total) || Number.isNaN(orderedAt.getTime())) return null;
  const customer = isObject(value.customer) ? value.customer : {};
  const shipping = isObject(value.shipping_address) ? value.shipping_address : {};
  const billing = isObject(value.billing_address) ? value.billing_address : {};
  const gateways = Array.isArray(value.payment_gateway_names) ? value.payment_gateway_names.map((g) => asText(g) ?? '') : [];
  return {
    externalId: id,
    name: asText(value.name) ?? id,
    customerName: [asText(customer.first_name), asText(customer.last_name)].filter((n) => n).join(' ') || null,
    email: asText(value.email),
    phone: asText(value.phone) ?? asText(customer.phone) ?? asText(shipping.phone) ?? asText(billing.phone),
    currency: asText(value.currency) ?? 'USD',
    totalValue: total,
    financialStatus: asText(value.financial_status),
    fulfillmentStatus: asText(value.fulfillment_status),
    cod: gateways.some((g) => COD_GATEWAY.test(g)),
    orderedAt,
  };
}

/** The `page_info` of the Link header's rel="next" URL (Shopify's cursor), or null on the last page. */
export function nextPageInfo(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const m = /<([^>]+)>;\s*rel="?next"?/.exec(part.trim());
    if (m) return new URL(m[1]).searchParams.get('page_info');
  }
  return null;
}
