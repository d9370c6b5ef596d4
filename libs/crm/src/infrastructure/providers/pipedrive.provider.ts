import { Injectable } from '@nestjs/common';
import { AppConfig, AppError } from '@outreach/core';
import { CrmCredentials, CrmProvider, VerifiedAccount, WebhookDelivery, WebhookNotAuthentic } from '../../application/crm.ports';
import { CrmPage, CrmProviderInfo, CrmRecord, CrmSegment } from '../../domain/crm-provider-info';
import { asText, credential, crmRequest, isObject, unexpected } from './crm-http';

const NAME = 'Pipedrive';
const FIELDS = ['first_name', 'last_name', 'name', 'email', 'phone', 'org_name', 'owner_name'];

/**
 * Pipedrive, the OAuth provider: a person signs in (POST /crm/connections answers 400
 * provider_not_api_key; the OAuth route answers API keys 403 api_key_not_allowed). With the OAuth
 * access token (`accessToken`, Bearer): persons from GET /api/v1/persons (`start`/`limit` paging,
 * `additional_data.pagination.next_start`), filters as segments (`filter_id`). Its webhooks
 * authenticate with HTTP Basic credentials, not a signature over the body: this service takes
 * none (400 webhooks_not_supported).
 */
@Injectable()
export class PipedriveCrmProvider extends CrmProvider {
  readonly info: CrmProviderInfo = {
    slug: 'pipedrive',
    name: NAME,
    authType: 'OAUTH',
    supportsWebhooks: false,
    capabilities: { contacts: true, segments: true, orders: false },
    credentialFields: ['accessToken'],
    fields: FIELDS,
  };
  readonly defaults = { phone: ['phone'], name: ['name'] };
  readonly maxPageSize = 500;

  constructor(private readonly config: AppConfig) {
    super();
  }

  async verify(credentials: CrmCredentials): Promise<VerifiedAccount> {
    const res = await this.get(credentials, '/api/v1/users/me');
    const me = isObject(res.body) && isObject(res.body.data) ? res.body.data : null;
    if (!me) throw unexpected(NAME, 'user');
    return {
      providerEmail: asText(me.email) ?? '',
      display: { companyName: asText(me.company_name), companyDomain: asText(me.company_domain) },
      missingScopes: [],
      webhookSecret: null,
      webhookTopics: { subscribed: [], failed: [] },
    };
  }

  async segment(credentials: CrmCredentials, segmentId: string): Promise<CrmSegment> {
    const res = await this.get(credentials, `/api/v1/filters/${encodeURIComponent(segmentId)}`);
    const filter = isObject(res.body) && isObject(res.body.data) ? res.body.data : null;
    if (!filter) throw unexpected(NAME, 'filter');
    return { id: segmentId, name: asText(filter.name) ?? segmentId, size: null };
  }

  async contacts(credentials: CrmCredentials, query: { segmentId: string | null; cursor: string | null; limit: number }): Promise<CrmPage> {
    const filter = query.segmentId ? `&filter_id=${encodeURIComponent(query.segmentId)}` : '';
    const res = await this.get(credentials, `/api/v1/persons?start=${Number(query.cursor ?? 0)}&limit=${query.limit}${filter}`);
    if (!isObject(res.body)) throw unexpected(NAME, 'persons page');
    const data = res.body.data === null ? [] : res.body.data;
    if (!Array.isArray(data)) throw unexpected(NAME, 'persons page');
    const extra = isObject(res.body.additional_data) && isObject(res.body.additional_data.pagination) ? res.body.additional_data.pagination : {};
    const next = extra.more_items_in_collection === true ? asText(extra.next_start) : null;
    return { records: data.map(readPerson), nextCursor: next, total: null };
  }

  async contact(credentials: CrmCredentials, recordId: string): Promise<CrmRecord | null> {
    const res = await this.get(credentials, `/api/v1/persons/${encodeURIComponent(recordId)}`, [404]);
    return res.status === 404 ? null : readPerson(isObject(res.body) ? res.body.data : null);
  }

  /**
   * Pipedrive's token endpoint: POST {CRM_PIPEDRIVE_OAUTH_URL}/oauth/token, HTTP Basic with the
   * app's client id and secret, form body grant_type=authorization_code, code, redirect_uri. An
   * invalid or used code is 400/401 → invalid_credentials. The refresh token and expiry are kept
   * sealed with the access token (refreshing is not built: decisions.md 31.18).
   */
  override async exchangeOAuthCode(grant: { code: string; redirectUri: string }): Promise<CrmCredentials> {
    const { crmPipedriveClientId: id, crmPipedriveClientSecret: secret } = this.config;
    if (!id || !secret) throw new AppError('invalid_request', { message: 'Pipedrive OAuth needs CRM_PIPEDRIVE_CLIENT_ID and CRM_PIPEDRIVE_CLIENT_SECRET' });
    const res = await crmRequest(NAME, `${this.config.crmPipedriveOauthUrl}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: grant.code, redirect_uri: grant.redirectUri }),
      timeoutMs: this.config.crmHttpTimeoutMs,
      allow: [400],
    });
    if (res.status === 400) throw new AppError('invalid_credentials', { message: 'Pipedrive refused the authorization code (400)' });
    const body = isObject(res.body) ? res.body : {};
    const accessToken = asText(body.access_token);
    if (!accessToken) throw unexpected(NAME, 'token answer');
    const expiresIn = Number(body.expires_in);
    return {
      accessToken,
      ...(asText(body.refresh_token) ? { refreshToken: asText(body.refresh_token)! } : {}),
      ...(Number.isFinite(expiresIn) ? { expiresAt: new Date(Date.now() + expiresIn * 1000).toISOString() } : {}),
      ...(asText(body.scope) ? { scope: asText(body.scope)! } : {}),
    };
  }

  readWebhook(): WebhookDelivery {
    throw new WebhookNotAuthentic('Pipedrive webhooks are not taken');
  }

  private get(credentials: CrmCredentials, path: string, allow: readonly number[] = []) {
    return crmRequest(NAME, `${this.config.crmPipedriveApiUrl}${path}`, {
      allow,
      headers: { authorization: `Bearer ${credential(credentials, 'accessToken')}` },
      timeoutMs: this.config.crmHttpTimeoutMs,
    });
  }
}

const primary = (list: unknown): string | null => {
  if (!Array.isArray(list)) return null;
  const entry = list.find((e) => isObject(e) && e.primary === true) ?? list[0];
  return isObject(entry) ? asText(entry.value) : null;
};

function readPerson(value: unknown): CrmRecord {
  if (!isObject(value) || asText(value.id) === null) throw unexpected(NAME, 'person');
  return {
    id: asText(value.id)!,
    properties: {
      first_name: asText(value.first_name),
      last_name: asText(value.last_name),
      name: asText(value.name),
      email: primary(value.email),
      phone: primary(value.phone),
      org_name: asText(value.org_name),
      owner_name: asText(value.owner_name),
    },
  };
}
