import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import { AppConfig, AppError, Clock, isUuid, Outbox, UnitOfWork } from '@outreach/core';
import { decodeCursor, Page, toPage } from '../domain/page-cursor';
import {
  assertPublicTarget,
  hostOf,
  MAX_WEBHOOK_ENDPOINTS,
  parseWebhookUrl,
  SECRET_OVERLAP_MS,
} from '../domain/webhook-endpoint';
import { newWebhookSecret } from '../domain/webhook-signature';
import { deliverJob } from './results-jobs';
import { DeliveryStatus, DeliveryStore, DeliveryView, HostResolver, WebhookEndpointRecord, WebhookEndpointStore } from './results.ports';

export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string | null;
  enabled: boolean;
  /** Why the service switched the endpoint off (a receiver's 410), null otherwise. */
  disabledReason: string | null;
  secretRotatedAt: string | null;
  /** Until when the previous secret still signs deliveries (after a rotation). */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An endpoint with its secret: only in the answers to create and rotate-secret. */
export type WebhookEndpointWithSecret = WebhookEndpointView & { secret: string };

export interface EndpointInput {
  url?: string;
  enabled?: boolean;
  description?: string | null;
}

/** Result webhook endpoints of a workspace, their secrets, and the delivery history. */
@Injectable()
export class ResultWebhooks {
  constructor(
    private readonly endpoints: WebhookEndpointStore,
    private readonly deliveries: DeliveryStore,
    private readonly resolver: HostResolver,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async create(workspaceId: string, input: EndpointInput & { url: string }): Promise<WebhookEndpointWithSecret> {
    const url = await this.checkedUrl(input.url);
    return this.uow.run(async () => {
      if ((await this.endpoints.count(workspaceId)) >= MAX_WEBHOOK_ENDPOINTS) {
        throw new AppError('invalid_request', { message: `a workspace has at most ${MAX_WEBHOOK_ENDPOINTS} result webhooks` });
      }
      const now = this.clock.now();
      const endpoint: WebhookEndpointRecord = {
        id: randomUUID(),
        workspaceId,
        url,
        description: input.description ?? null,
        enabled: input.enabled ?? true,
        disabledReason: null,
        previousSecretExpiresAt: null,
        secretRotatedAt: null,
        createdAt: now,
        updatedAt: now,
      };
      const secret = newWebhookSecret();
      await this.endpoints.insert(endpoint, secret);
      return { ...toView(endpoint), secret };
    });
  }

  async list(workspaceId: string): Promise<WebhookEndpointView[]> {
    return (await this.endpoints.list(workspaceId)).map(toView);
  }

  async get(workspaceId: string, id: string): Promise<WebhookEndpointView> {
    return toView(await this.require(workspaceId, id));
  }

  /** PATCH: url (checked again), enabled (re-enabling clears the reason it was switched off), description. */
  async update(workspaceId: string, id: string, input: EndpointInput): Promise<WebhookEndpointView> {
    if (input.url === undefined && input.enabled === undefined && input.description === undefined) {
      throw new AppError('no_fields_to_update');
    }
    await this.require(workspaceId, id);
    const url = input.url === undefined ? undefined : await this.checkedUrl(input.url);
    return this.uow.run(async () => {
      const endpoint = await this.require(workspaceId, id);
      if (url !== undefined) endpoint.url = url;
      if (input.description !== undefined) endpoint.description = input.description;
      if (input.enabled !== undefined) {
        endpoint.enabled = input.enabled;
        if (input.enabled) endpoint.disabledReason = null;
      }
      endpoint.updatedAt = this.clock.now();
      await this.endpoints.update(endpoint);
      return toView(endpoint);
    });
  }

  /** Deletes the endpoint; its pending deliveries are canceled, its history stays listed. */
  async delete(workspaceId: string, id: string): Promise<void> {
    await this.uow.run(async () => {
      await this.require(workspaceId, id);
      const now = this.clock.now();
      await this.endpoints.delete(workspaceId, id, now);
      await this.deliveries.cancelPendingForEndpoint(id, 'endpoint deleted', now);
    });
  }

  /** A new secret, shown once; the previous one keeps signing (as a second signature) for 24 h. */
  async rotateSecret(workspaceId: string, id: string): Promise<WebhookEndpointWithSecret> {
    return this.uow.run(async () => {
      const endpoint = await this.require(workspaceId, id);
      const now = this.clock.now();
      endpoint.previousSecretExpiresAt = new Date(now.getTime() + SECRET_OVERLAP_MS);
      endpoint.secretRotatedAt = now;
      endpoint.updatedAt = now;
      const secret = newWebhookSecret();
      await this.endpoints.rotateSecret(endpoint, secret);
      return { ...toView(endpoint), secret };
    });
  }

  /** Newest first, each with every attempt made. */
  async deliveriesPage(
    workspaceId: string,
    query: { endpointId?: string; resultId?: string; status?: DeliveryStatus; cursor?: string; limit: number },
  ): Promise<Page<DeliveryView>> {
    const afterSeq = decodeCursor('deliveries', query.cursor);
    const rows = await this.deliveries.list(workspaceId, {
      endpointId: query.endpointId,
      resultId: query.resultId,
      status: query.status,
      afterSeq,
      limit: query.limit + 1,
    });
    return toPage('deliveries', rows, query.limit, (r) => r.delivery);
  }

  /** Sends the delivery again (due now, history kept). The endpoint must exist and be enabled. */
  async redeliver(workspaceId: string, deliveryId: string): Promise<DeliveryView> {
    return this.uow.run(async () => {
      const delivery = await this.deliveries.find(workspaceId, deliveryId);
      if (!delivery) throw new AppError('not_found', { message: `no delivery ${deliveryId}` });
      const endpoint = await this.endpoints.find(workspaceId, delivery.endpointId);
      if (!endpoint) throw new AppError('invalid_request', { message: 'the delivery’s webhook endpoint was deleted' });
      if (!endpoint.enabled) throw new AppError('invalid_request', { message: 'the webhook endpoint is disabled; enable it first' });
      await this.deliveries.requeue(deliveryId, this.clock.now());
      await this.outbox.enqueue(deliverJob(deliveryId));
      return (await this.deliveries.find(workspaceId, deliveryId))!;
    });
  }

  private async require(workspaceId: string, id: string): Promise<WebhookEndpointRecord> {
    const endpoint = isUuid(id) ? await this.endpoints.find(workspaceId, id) : null;
    if (!endpoint) throw new AppError('not_found', { message: `no result webhook ${id}` });
    return endpoint;
  }

  /** The URL, after refusing private, loopback and link-local targets (unless configured otherwise). */
  private async checkedUrl(raw: string): Promise<string> {
    const url = parseWebhookUrl(raw);
    if (!this.config.webhookAllowPrivateTargets) {
      const host = hostOf(url);
      assertPublicTarget(host, isIP(host) ? [host] : await this.resolver.resolve(host));
    }
    return url.toString();
  }
}

function toView(e: WebhookEndpointRecord): WebhookEndpointView {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    secretRotatedAt: e.secretRotatedAt?.toISOString() ?? null,
    previousSecretExpiresAt: e.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
