import { Injectable } from '@nestjs/common';
import { AppConfig, AppError } from '@outreach/core';
import { CrmCredentials, CrmProvider, VerifiedAccount, WebhookDelivery, WebhookNotAuthentic, WebhookRequest } from '../../application/crm.ports';
import { CrmPage, CrmProviderInfo, CrmRecord, CrmSegment } from '../../domain/crm-provider-info';
import { asText, credential, crmRequest, isObject, unexpected } from './crm-http';
import { assertSignature, hmacSha256, parseJsonBody, webhookSecret } from './signatures';

const NAME = 'HubSpot';
const PROPERTIES = ['firstname', 'lastname', 'email', 'phone', 'mobilephone', 'company', 'city', 'lifecyclestage'];
/** HubSpot refuses v3 webhook requests older than this (its documentation: 5 minutes). */
export const HUBSPOT_MAX_WEBHOOK_AGE_MS = 5 * 60 * 1000;
const CONTACT_EVENTS = new Set(['contact.creation', 'contact.propertyChange', 'contact.restore', 'contact.merge']);

/**
 * HubSpot (private-app access token, `Authorization: Bearer`): contacts from
 * GET /crm/v3/objects/contacts (cursor `after`), lists as segments (v3 lists API:
 * GET /crm/v3/lists/{listId}, memberships paged by `after`, then a batch read of the members),
 * webhooks v3 (`X-HubSpot-Signature-v3` = base64 HMAC-SHA256 of the app's client secret over
 * method + URI + body + `X-HubSpot-Request-Timestamp`; older than 5 minutes refused). Webhook events
 * carry only the contact's id (`objectId`): the contact is read from the API.
 * Credentials: `accessToken`, and `clientSecret` for webhooks.
 */
@Injectable()
export class HubspotCrmProvider extends CrmProvider {
  readonly info: CrmProviderInfo = {
    slug: 'hubspot',
    name: NAME,
    authType: 'API_KEY',
    supportsWebhooks: true,
    capabilities: { contacts: true, segments: true, orders: false },
    credentialFields: ['accessToken', 'clientSecret'],
    fields: PROPERTIES,
  };
  readonly defaults = { phone: ['phone', 'mobilephone'], name: ['firstname', 'lastname'] };
  readonly maxPageSize = 100;

  constructor(private readonly config: AppConfig) {
    super();
  }

  async verify(credentials: CrmCredentials): Promise<VerifiedAccount> {
    const account = await this.get(credentials, '/account-info/v3/details');
    if (!isObject(account.body) || account.body.portalId === undefined) throw unexpected(NAME, 'account');
    const missingScopes: string[] = [];
    const probe = await this.get(credentials, '/crm/v3/objects/contacts?limit=1', [403]);
    if (probe.status === 403) missingScopes.push('crm.objects.contacts.read');
    const users = await this.get(credentials, '/settings/v3/users?limit=1', [403]);
    const first = users.status === 200 && isObject(users.body) && Array.isArray(users.body.results) ? users.body.results[0] : undefined;
    const providerEmail = isObject(first) && typeof first.email === 'string' ? first.email : '';
    if (users.status === 403) missingScopes.push('settings.users.read');
    const hasSecret = !!credentials.clientSecret;
    return {
      providerEmail,
      display: { portalId: account.body.portalId, uiDomain: asText(account.body.uiDomain), timeZone: asText(account.body.timeZone) },
      missingScopes,
      webhookSecret: hasSecret ? credentials.clientSecret : null,
      webhookTopics: hasSecret
        ? { subscribed: ['contact.creation', 'contact.propertyChange'], failed: [] }
        : { subscribed: [], failed: [{ topic: 'contact.creation', reason: 'no client secret to verify signatures' }] },
    };
  }

  async segment(credentials: CrmCredentials, segmentId: string): Promise<CrmSegment> {
    if (!/^[0-9]{1,20}$/.test(segmentId)) throw new AppError('crm_resource_not_found', { message: `HubSpot list ids are numbers, not ${JSON.stringify(segmentId)}` });
    const res = await this.get(credentials, `/crm/v3/lists/${segmentId}`);
    const list = isObject(res.body) && isObject(res.body.list) ? res.body.list : null;
    if (!list) throw unexpected(NAME, 'list');
    const extra = isObject(list.additionalProperties) ? list.additionalProperties : {};
    const size = typeof list.size === 'number' ? list.size : Number(extra.hs_list_size ?? NaN);
    return { id: String(list.listId ?? segmentId), name: asText(list.name) ?? segmentId, size: Number.isFinite(size) ? size : null };
  }

  async contacts(credentials: CrmCredentials, query: { segmentId: string | null; cursor: string | null; limit: number }): Promise<CrmPage> {
    const after = query.cursor ? `&after=${encodeURIComponent(query.cursor)}` : '';
    if (!query.segmentId) {
      const res = await this.get(credentials, `/crm/v3/objects/contacts?limit=${query.limit}&properties=${PROPERTIES.join(',')}${after}`);
      return { records: readResults(res.body), nextCursor: nextAfter(res.body), total: null };
    }
    const res = await this.get(credentials, `/crm/v3/lists/${encodeURIComponent(query.segmentId)}/memberships?limit=${query.limit}${after}`);
    if (!isObject(res.body) || !Array.isArray(res.body.results)) throw unexpected(NAME, 'memberships page');
    const ids = res.body.results.map((r) => (isObject(r) ? asText(r.recordId) : null)).filter((id): id is string => !!id);
    let records: CrmRecord[] = [];
    if (ids.length > 0) {
      const batch = await this.get(credentials, '/crm/v3/objects/contacts/batch/read', [], 'POST', { properties: PROPERTIES, inputs: ids.map((id) => ({ id })) });
      records = readResults(batch.body);
    }
    return { records, nextCursor: nextAfter(res.body), total: null };
  }

  async contact(credentials: CrmCredentials, recordId: string): Promise<CrmRecord | null> {
    if (!/^[0-9]{1,20}$/.test(recordId)) return null;
    const res = await this.get(credentials, `/crm/v3/objects/contacts/${recordId}?properties=${PROPERTIES.join(',')}`, [404]);
    if (res.status === 404) return null;
    const record = readRecord(res.body);
    if (!record) throw unexpected(NAME, 'contact');
    return record;
  }

  readWebhook(credentials: CrmCredentials, request: WebhookRequest): WebhookDelivery {
    const secret = webhookSecret(credentials, 'clientSecret');
    const timestamp = request.headers['x-hubspot-request-timestamp'];
    if (!timestamp || !/^[0-9]{1,15}$/.test(timestamp)) throw new WebhookNotAuthentic('no X-HubSpot-Request-Timestamp');
    if (request.now.getTime() - Number(timestamp) > HUBSPOT_MAX_WEBHOOK_AGE_MS) throw new WebhookNotAuthentic('X-HubSpot-Request-Timestamp older than 5 minutes');
    const base = `${request.method.toUpperCase()}${request.url}${request.rawBody.toString('utf8')}${timestamp}`;
    assertSignature(request.headers['x-hubspot-signature-v3'], hmacSha256(secret, base, 'base64'), 'X-HubSpot-Signature-v3');
    const body = parseJsonBody(request.rawBody);
    const ids = new Set<string>();
    for (const event of Array.isArray(body) ? body : []) {
      if (isObject(event) && typeof event.subscriptionType === 'string' && CONTACT_EVENTS.has(event.subscriptionType)) {
        const id = asText(event.objectId);
        if (id) ids.add(id);
      }
    }
    return { records: [], recordIds: [...ids] };
  }

  private get(credentials: CrmCredentials, path: string, allow: readonly number[] = [], method = 'GET', body?: unknown) {
    return crmRequest(NAME, `${this.config.crmHubspotApiUrl}${path}`, {
      method,
      body,
      allow,
      headers: { authorization: `Bearer ${credential(credentials, 'accessToken')}` },
      timeoutMs: this.config.crmHttpTimeoutMs,
    });
  }
}

function readRecord(value: unknown): CrmRecord | null {
  if (!isObject(value) || !isObject(value.properties)) return null;
  const id = asText(value.id);
  if (!id) return null;
  return { id, properties: Object.fromEntries(PROPERTIES.map((p) => [p, asText((value.properties as Record<string, unknown>)[p])])) };
}

function readResults(body: unknown): CrmRecord[] {
  if (!isObject(body) || !Array.isArray(body.results)) throw unexpected(NAME, 'contacts page');
  return body.results.map((r) => {
    const record = readRecord(r);
    if (!record) throw unexpected(NAME, 'contact in a page');
    return record;
  });
}

function nextAfter(body: unknown): string | null {
  const paging = isObject(body) && isObject(body.paging) && isObject(body.paging.next) ? body.paging.next : null;
  return paging ? asText(paging.after) : null;
}
