import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CrmContactIntake } from '@outreach/campaigns';
import { AppError, Clock, isUuid, normalisePhone, UnitOfWork } from '@outreach/core';
import { CrmRecord } from '../domain/crm-provider-info';
import { mapRecord } from '../domain/field-mapping';
import { CommerceOrderRepository, CrmConnectionRepository, CrmWebhookEvent, CrmWebhookEventRepository, WebhookDelivery, WebhookNotAuthentic } from './crm.ports';
import { CrmConnections } from './crm-connections.service';
import { OrderNotifications } from './order-notifications.service';

export interface CrmWebhookReceipt {
  /** Records the request named. */
  received: number;
  /** New events added to the live campaign. */
  delivered: number;
  /** New events kept until a CRM_WEBHOOK campaign of the connection runs. */
  deferred: number;
  /** Events seen before (same record and phone): ignored. */
  duplicates: number;
  /** Records without a usable phone, or that the CRM no longer has. */
  invalid: number;
  /** Shop orders stored (new or updated). */
  orders: number;
  /** Order notifications written by the connection's order-notification rules (sent by the worker). */
  notifications: number;
}

const DRAIN_BATCH = 500;

/**
 * POST /crm/webhooks/{connectionId}: verified with the connection's secret the provider's way over
 * the raw body (401 unauthorized, nothing stored), then each record becomes an event, unique per
 * (connection, record id, phone): a redelivery is a duplicate and never a second contact. Events go
 * at once into the RUNNING CRM_WEBHOOK campaign whose defaultCrmConnectionId is the connection, in
 * the same transaction; with none running they are kept (deferredEventCount) and drained by the
 * worker when one runs.
 */
@Injectable()
export class CrmWebhooks {
  constructor(
    private readonly connections: CrmConnections,
    private readonly connectionRepo: CrmConnectionRepository,
    private readonly events: CrmWebhookEventRepository,
    private readonly orders: CommerceOrderRepository,
    private readonly intake: CrmContactIntake,
    private readonly orderNotifications: OrderNotifications,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async receive(connectionId: string, request: { method: string; headers: Readonly<Record<string, string | undefined>>; rawBody: Buffer }): Promise<CrmWebhookReceipt> {
    const connection = isUuid(connectionId) ? await this.connectionRepo.findById(connectionId) : null;
    if (!connection) throw new AppError('crm_connection_not_found', { message: `no CRM connection ${connectionId}` });
    const provider = this.connections.provider(connection);
    if (!provider.info.supportsWebhooks) {
      throw new AppError('webhooks_not_supported', { message: `${provider.info.name} sends no webhooks this service takes` });
    }
    const open = this.connections.open(connection);
    const now = this.clock.now();
    let delivery: WebhookDelivery;
    try {
      delivery = open.provider.readWebhook(open.credentials, { ...request, url: this.connections.webhookUrl(connection.id), now });
    } catch (error) {
      if (error instanceof WebhookNotAuthentic) throw new AppError('unauthorized', { message: `CRM webhook not authentic: ${error.message}` });
      throw error;
    }
    const records: CrmRecord[] = [...delivery.records];
    for (const id of delivery.recordIds) {
      const record = await open.provider.contact(open.credentials, id);
      if (record) records.push(record);
    }
    const orders = delivery.orders ?? [];
    const receipt: CrmWebhookReceipt = { received: delivery.records.length + delivery.recordIds.length, delivered: 0, deferred: 0, duplicates: 0, invalid: 0, orders: orders.length, notifications: 0 };
    receipt.invalid += delivery.recordIds.length - (records.length - delivery.records.length);
    const fresh: CrmWebhookEvent[] = [];
    await this.uow.run(async () => {
      for (const { event, order } of orders) {
        const orderId = await this.orders.upsert({ ...order, id: randomUUID(), workspaceId: connection.workspaceId, connectionId: connection.id, receivedAt: now, updatedAt: now });
        receipt.notifications += await this.orderNotifications.onOrderEvent(connection.workspaceId, connection.id, event, orderId);
      }
      if (records.length === 0) return;
      const campaignId = await this.intake.liveWebhookCampaign(connection.workspaceId, connection.id);
      for (const record of records) {
        const contact = mapRecord(record, connection.mappings, open.provider.defaults);
        if (!contact) {
          receipt.invalid += 1;
          continue;
        }
        const event: CrmWebhookEvent = {
          id: randomUUID(),
          workspaceId: connection.workspaceId,
          connectionId: connection.id,
          recordId: record.id,
          phoneKey: normalisePhone(contact.phone) ?? contact.phone,
          contact,
          campaignId: null,
          receivedAt: now,
          deliveredAt: null,
        };
        if (await this.events.insertIfNew(event)) fresh.push(event);
        else receipt.duplicates += 1;
      }
      if (campaignId && fresh.length > 0) {
        await this.intake.addFromWebhook(connection.workspaceId, campaignId, fresh.map((e) => e.contact));
        await this.events.markDelivered(fresh.map((e) => e.id), campaignId, now);
        receipt.delivered = fresh.length;
      } else {
        receipt.deferred = fresh.length;
      }
    });
    return receipt;
  }

  /** The worker's loop: deferred events into the campaign that now runs for their connection. Returns how many moved. */
  async drain(): Promise<number> {
    let moved = 0;
    for (const { workspaceId, connectionId } of await this.events.connectionsWithDeferred(100)) {
      for (;;) {
        const n = await this.uow.run(async () => {
          const campaignId = await this.intake.liveWebhookCampaign(workspaceId, connectionId);
          if (!campaignId) return 0;
          const batch = await this.events.takeDeferred(connectionId, DRAIN_BATCH);
          if (batch.length === 0) return 0;
          await this.intake.addFromWebhook(workspaceId, campaignId, batch.map((e) => e.contact));
          await this.events.markDelivered(batch.map((e) => e.id), campaignId, this.clock.now());
          return batch.length;
        });
        moved += n;
        if (n < DRAIN_BATCH) break;
      }
    }
    return moved;
  }
}
