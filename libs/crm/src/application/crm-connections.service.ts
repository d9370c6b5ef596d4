import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig, AppError, Clock, isUuid } from '@outreach/core';
import { CrmConnectionProps } from '../domain/crm-connection';
import { CrmProviderInfo, CrmSegment } from '../domain/crm-provider-info';
import { assertMappings, FieldMapping } from '../domain/field-mapping';
import { CredentialSealer, CrmConnectionRepository, CrmCredentials, CrmProvider, CrmProviders, CrmWebhookEventRepository } from './crm.ports';

/** A CRM connection as the API shows it: exactly the contract's list-item fields. */
export interface CrmConnectionView {
  id: string;
  slug: string;
  name: string;
  status: string;
  providerEmail: string;
  connectedAt: string;
  display: Record<string, unknown>;
  hasWebhookSecret: boolean;
  webhookUrl: string;
  deferredEventCount: number;
  missingScopes: string[];
  webhookTopics: { subscribed: string[]; failed: Array<{ topic: string; reason: string }>; checkedAt: string };
}

/** A connection with what using it needs: its provider and opened credentials. */
export interface OpenConnection {
  connection: CrmConnectionProps;
  provider: CrmProvider;
  credentials: CrmCredentials;
}

/**
 * Providers and connections: API-key connect (verified through the adapter before anything is
 * stored; credentials sealed), list, get, disconnect, field mappings. Lookups of another
 * workspace's connection answer 404 crm_connection_not_found like unknown ids.
 */
@Injectable()
export class CrmConnections {
  constructor(
    private readonly providers: CrmProviders,
    private readonly connections: CrmConnectionRepository,
    private readonly events: CrmWebhookEventRepository,
    private readonly sealer: CredentialSealer,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  catalogue(): CrmProviderInfo[] {
    return this.providers.all().map((p) => p.info);
  }

  /**
   * POST /crm/connections: 404 unknown_crm, 400 provider_not_api_key (OAuth providers connect
   * through a person's sign-in), then the adapter's verdict (400 invalid_credentials, 502s).
   */
  async connect(workspaceId: string, slug: string, credentials: CrmCredentials): Promise<CrmConnectionView> {
    const provider = this.providers.find(slug);
    if (!provider) throw new AppError('unknown_crm', { message: `no CRM "${slug}" (see GET /crm/providers)` });
    if (provider.info.authType !== 'API_KEY') {
      throw new AppError('provider_not_api_key', { message: `${provider.info.name} connects with OAuth (a person signs in), not an API key` });
    }
    return this.store(workspaceId, provider, credentials);
  }

  /**
   * The operator CLI's crm:connect-oauth (decisions.md 31.18): 404 unknown_crm, 400 invalid_request
   * for an API-key provider, then the provider's token endpoint (400 invalid_credentials for a
   * refused code), then the same verification and sealed storage as an API-key connect.
   */
  async connectOAuth(workspaceId: string, slug: string, grant: { code: string; redirectUri: string }): Promise<CrmConnectionView> {
    if (!isUuid(workspaceId)) throw new AppError('invalid_request', { message: 'workspace must be a UUID' });
    const provider = this.providers.find(slug);
    if (!provider) throw new AppError('unknown_crm', { message: `no CRM "${slug}" (see GET /crm/providers)` });
    if (provider.info.authType !== 'OAUTH') {
      throw new AppError('invalid_request', { message: `${provider.info.name} connects with an API key (POST /crm/connections), not OAuth` });
    }
    return this.store(workspaceId, provider, await provider.exchangeOAuthCode(grant));
  }

  /** Verified by the provider, then stored with the credentials sealed: nothing is written before the provider said yes. */
  private async store(workspaceId: string, provider: CrmProvider, credentials: CrmCredentials): Promise<CrmConnectionView> {
    const slug = provider.info.slug;
    const account = await provider.verify(credentials);
    const id = randomUUID();
    const now = this.clock.now();
    const connection: CrmConnectionProps = {
      id,
      workspaceId,
      slug,
      status: 'ACTIVE',
      providerEmail: account.providerEmail,
      display: account.display,
      sealedCredentials: this.sealer.seal(credentials, id),
      hasWebhookSecret: account.webhookSecret !== null,
      mappings: [],
      missingScopes: account.missingScopes,
      webhookTopics: { ...account.webhookTopics, checkedAt: now },
      connectedAt: now,
      disconnectedAt: null,
    };
    await this.connections.insert(connection);
    return (await this.views([connection]))[0];
  }

  async list(workspaceId: string): Promise<CrmConnectionView[]> {
    return this.views(await this.connections.listActive(workspaceId));
  }

  async get(workspaceId: string, id: string): Promise<CrmConnectionView> {
    return (await this.views([await this.require(workspaceId, id)]))[0];
  }

  /** DELETE: the connection stops (DISCONNECTED; its credentials are dropped); 400 crm_connection_not_active when already. */
  async disconnect(workspaceId: string, id: string): Promise<void> {
    const connection = await this.requireActive(workspaceId, id);
    connection.status = 'DISCONNECTED';
    connection.disconnectedAt = this.clock.now();
    connection.sealedCredentials = '';
    await this.connections.update(connection);
  }

  async mappings(workspaceId: string, id: string): Promise<FieldMapping[]> {
    return (await this.require(workspaceId, id)).mappings;
  }

  /** PUT mappings: replaces them (an empty list restores the defaults). */
  async setMappings(workspaceId: string, id: string, mappings: FieldMapping[]): Promise<FieldMapping[]> {
    const connection = await this.requireActive(workspaceId, id);
    assertMappings(mappings, this.provider(connection).info.fields);
    connection.mappings = mappings.map((m) => ({ source: m.source, target: m.target }));
    await this.connections.update(connection);
    return connection.mappings;
  }

  /** GET segments of an active connection (a live call to the CRM). */
  async segment(workspaceId: string, id: string, segmentId: string): Promise<CrmSegment> {
    const open = await this.openActive(workspaceId, id);
    return open.provider.segment(open.credentials, segmentId);
  }

  /** 404 crm_connection_not_found (unknown, malformed, another workspace's). */
  async require(workspaceId: string, id: string): Promise<CrmConnectionProps> {
    const connection = isUuid(id) ? await this.connections.find(workspaceId, id) : null;
    if (!connection) throw new AppError('crm_connection_not_found', { message: `no CRM connection ${id}` });
    return connection;
  }

  /** …and 400 crm_connection_not_active when it is not ACTIVE. */
  async requireActive(workspaceId: string, id: string): Promise<CrmConnectionProps> {
    const connection = await this.require(workspaceId, id);
    assertActive(connection);
    return connection;
  }

  async openActive(workspaceId: string, id: string): Promise<OpenConnection> {
    return this.open(await this.requireActive(workspaceId, id));
  }

  open(connection: CrmConnectionProps): OpenConnection {
    assertActive(connection);
    return { connection, provider: this.provider(connection), credentials: this.sealer.open(connection.sealedCredentials, connection.id) };
  }

  webhookUrl(connectionId: string): string {
    return `${this.config.publicBaseUrl}/crm/webhooks/${connectionId}`;
  }

  /** The connection's adapter. */
  provider(connection: CrmConnectionProps): CrmProvider {
    const provider = this.providers.find(connection.slug);
    if (!provider) throw new AppError('internal_error', { message: `connection ${connection.id} names an unknown CRM ${connection.slug}` });
    return provider;
  }

  private async views(connections: CrmConnectionProps[]): Promise<CrmConnectionView[]> {
    const deferred = await this.events.countDeferred(connections.map((c) => c.id));
    return connections.map((c) => ({
      id: c.id,
      slug: c.slug,
      name: this.provider(c).info.name,
      status: c.status,
      providerEmail: c.providerEmail,
      connectedAt: c.connectedAt.toISOString(),
      display: c.display,
      hasWebhookSecret: c.hasWebhookSecret,
      webhookUrl: this.webhookUrl(c.id),
      deferredEventCount: deferred.get(c.id) ?? 0,
      missingScopes: c.missingScopes,
      webhookTopics: {
        subscribed: c.webhookTopics.subscribed,
        failed: c.webhookTopics.failed,
        checkedAt: new Date(c.webhookTopics.checkedAt).toISOString(),
      },
    }));
  }
}

function assertActive(connection: CrmConnectionProps): void {
  if (connection.status !== 'ACTIVE') {
    throw new AppError('crm_connection_not_active', { message: `the CRM connection is ${connection.status}` });
  }
}
