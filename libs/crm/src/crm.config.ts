import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the crm module owns (validated at boot with every other module's). */
export const CRM_CONFIG = defineConfig('crm', (env) => ({
  /** The service's public origin; a connection's webhookUrl is this + /crm/webhooks/{id} (PUBLIC_BASE_URL). */
  publicBaseUrl: env.url('PUBLIC_BASE_URL', 'http://localhost:3000', ['http:', 'https:']).replace(/\/+$/, ''),
  /** HubSpot's API origin (CRM_HUBSPOT_API_URL, default https://api.hubapi.com). */
  crmHubspotApiUrl: env.url('CRM_HUBSPOT_API_URL', 'https://api.hubapi.com', ['http:', 'https:']).replace(/\/+$/, ''),
  /** Shopify Admin API origin for every shop (CRM_SHOPIFY_API_URL; unset: https://{shopDomain}). */
  crmShopifyApiUrl: env.optional('CRM_SHOPIFY_API_URL')?.replace(/\/+$/, '') ?? null,
  /** Pipedrive's API origin (CRM_PIPEDRIVE_API_URL, default https://api.pipedrive.com). */
  crmPipedriveApiUrl: env.url('CRM_PIPEDRIVE_API_URL', 'https://api.pipedrive.com', ['http:', 'https:']).replace(/\/+$/, ''),
  /** Pipedrive's OAuth origin, where authorization codes are exchanged (CRM_PIPEDRIVE_OAUTH_URL, default https://oauth.pipedrive.com). */
  crmPipedriveOauthUrl: env.url('CRM_PIPEDRIVE_OAUTH_URL', 'https://oauth.pipedrive.com', ['http:', 'https:']).replace(/\/+$/, ''),
  /** The service's Pipedrive app (CRM_PIPEDRIVE_CLIENT_ID, CRM_PIPEDRIVE_CLIENT_SECRET): unset, crm:connect-oauth refuses Pipedrive. */
  crmPipedriveClientId: env.optional('CRM_PIPEDRIVE_CLIENT_ID') ?? null,
  crmPipedriveClientSecret: env.optional('CRM_PIPEDRIVE_CLIENT_SECRET') ?? null,
  /** Time allowed for one CRM request before it counts as unreachable (CRM_HTTP_TIMEOUT_MS, default 10000). */
  crmHttpTimeoutMs: env.int('CRM_HTTP_TIMEOUT_MS', 10_000, 100, 120_000),
  /** Records asked per page during an import (CRM_IMPORT_PAGE_SIZE, default 100; capped by each provider's maximum). */
  crmImportPageSize: env.int('CRM_IMPORT_PAGE_SIZE', 100, 1, 1000),
  /** First back-off after a 429 or an outage during an import, doubled per consecutive failure (CRM_RETRY_BASE_MS, default 1000). */
  crmRetryBaseMs: env.int('CRM_RETRY_BASE_MS', 1000, 1, 600_000),
  /** Consecutive upstream failures (not 429s) after which an import fails (CRM_RETRY_MAX_FAILURES, default 8). */
  crmRetryMaxFailures: env.int('CRM_RETRY_MAX_FAILURES', 8, 1, 100),
  /** How often a worker moves deferred webhook events into a campaign that went live (CRM_WEBHOOK_DRAIN_MS, default 2000). */
  crmWebhookDrainMs: env.int('CRM_WEBHOOK_DRAIN_MS', 2000, 50, 600_000),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof CRM_CONFIG> {}
}
