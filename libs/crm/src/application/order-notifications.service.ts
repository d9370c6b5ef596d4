import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Tariffs } from '@outreach/billing';
import { Clock, isAppError, normalisePhone, Outbox, RetryLater, UnitOfWork } from '@outreach/core';
import { MessageQueries, SendMessage, WhatsappSenders } from '@outreach/messaging';
import { OrderUpdatesSummary, summarise } from '../domain/commerce-order';
import { OrderEvent, OrderNotificationProps } from '../domain/order-rule';
import { CommerceOrderRepository, OrderNotificationRepository, OrderRuleRepository } from './crm.ports';
import { CrmConnections } from './crm-connections.service';
import { orderNotificationJob } from './crm-jobs';

const DAY_MS = 24 * 3600 * 1000;
/** A send the provider refused for now (or another sender holds) is tried again after this. */
export const ORDER_NOTIFICATION_RETRY_MS = 30_000;
/** Refusals of SendMessage that no retry mends: the notification FAILS with the code as its reason. */
const FINAL_REFUSALS = new Set(['template_not_found', 'template_not_approved', 'invalid_request', 'not_found']);

/**
 * Order updates (decisions.md 31.15): an order event writes one notification per enabled rule of
 * the connection for that event, in the webhook's transaction, with its outbox job
 * (`crm/order-notification`, jobId from the notification id). A rule notifies an order once: a
 * redelivered webhook finds the (rule, order) notification and writes nothing. The worker sends it
 * through messaging's SendMessage with the notification's own idempotency key, so a job run twice
 * (a crash after the send) answers the first message and never sends a second.
 */
@Injectable()
export class OrderNotifications {
  private readonly log = new Logger('OrderNotifications');

  constructor(
    private readonly rules: OrderRuleRepository,
    private readonly notifications: OrderNotificationRepository,
    private readonly orders: CommerceOrderRepository,
    private readonly connections: CrmConnections,
    private readonly senders: WhatsappSenders,
    private readonly send: SendMessage,
    private readonly messages: MessageQueries,
    private readonly tariffs: Tariffs,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Inside the webhook's transaction: the notifications an order event calls for, and their jobs. Returns how many are new. */
  async onOrderEvent(workspaceId: string, connectionId: string, event: OrderEvent, orderId: string): Promise<number> {
    let written = 0;
    for (const rule of await this.rules.enabledFor(connectionId, event)) {
      const notification: OrderNotificationProps = {
        id: randomUUID(),
        workspaceId,
        connectionId,
        ruleId: rule.id,
        orderId,
        event,
        status: 'PENDING',
        messageId: null,
        reason: null,
        costMinor: 0,
        createdAt: this.clock.now(),
        attemptedAt: null,
      };
      if (!(await this.notifications.insertIfNew(notification))) continue;
      await this.outbox.enqueue(orderNotificationJob(notification.id));
      written += 1;
    }
    return written;
  }

  /** The worker's job: send one notification (no transaction open while the provider is asked), then record what happened. */
  async deliver(job: { notificationId: string }): Promise<void> {
    const notification = await this.notifications.findForUpdate(job.notificationId);
    if (!notification || notification.status !== 'PENDING') return;
    const outcome = await this.attempt(notification);
    await this.uow.run(async () => {
      const current = await this.notifications.findForUpdate(notification.id);
      if (!current || current.status !== 'PENDING') return;
      await this.notifications.update({ ...current, ...outcome, attemptedAt: this.clock.now() });
    });
  }

  private async attempt(n: OrderNotificationProps): Promise<Pick<OrderNotificationProps, 'status' | 'messageId' | 'reason' | 'costMinor'>> {
    const skipped = (reason: string) => ({ status: 'SKIPPED' as const, messageId: null, reason, costMinor: 0 });
    const failed = (reason: string, messageId: string | null = null) => ({ status: 'FAILED' as const, messageId, reason, costMinor: 0 });
    const rule = await this.rules.findById(n.ruleId);
    if (!rule || !rule.enabled) return skipped(rule ? 'rule_disabled' : 'rule_deleted');
    const order = await this.orders.findById(n.orderId);
    if (!order?.phone?.trim()) return skipped('no_phone');
    const phone = normalisePhone(order.phone);
    if (!phone) return skipped('invalid_phone');
    const connected = (await this.senders.list(n.workspaceId)).filter((s) => s.status === 'CONNECTED');
    const sender = connected.find((s) => s.isDefault) ?? connected[0];
    if (!sender) return failed('no_whatsapp_sender');
    try {
      const result = await this.send.send({
        workspaceId: n.workspaceId,
        channel: 'WHATSAPP',
        senderId: sender.id,
        templateId: rule.templateId,
        to: phone,
        variables: {
          contact: { name: order.customerName, phone, email: order.email },
          runtime: { order_id: order.name, order_total: `${order.totalValue.toFixed(2)} ${order.currency}` },
        },
        idempotencyKey: `crm-order-notification:${n.id}`,
      });
      switch (result.outcome) {
        case 'sent':
          return { status: 'SENT', messageId: result.message.id, reason: null, costMinor: await this.tariffs.messageCostMinor(n.workspaceId) };
        case 'failed':
          return failed(result.message.failureReason ?? 'failed', result.message.id);
        default:
          throw new RetryLater(ORDER_NOTIFICATION_RETRY_MS, `order notification ${n.id}: ${result.outcome}`);
      }
    } catch (error) {
      if (!isAppError(error)) throw error;
      if (error.code === 'contact_opted_out') return skipped('contact_opted_out');
      if (FINAL_REFUSALS.has(error.code)) {
        this.log.warn(`order notification ${n.id} not sent: ${error.code}`);
        return failed(error.code);
      }
      throw error;
    }
  }

  /** GET /crm/connections/{id}/order-updates/summary: the orders placed in the last `days` days and their notifications. */
  async summary(workspaceId: string, connectionId: string, days: number): Promise<OrderUpdatesSummary> {
    const connection = await this.connections.require(workspaceId, connectionId);
    const orders = await this.orders.since(connection.id, new Date(this.clock.now().getTime() - days * DAY_MS));
    const notifications = await this.notifications.ofOrders(orders.map((o) => o.id));
    const messageIds = notifications.map((n) => n.messageId).filter((id): id is string => id !== null);
    const outcomes = await this.messages.outcomes(workspaceId, messageIds);
    return summarise(
      orders,
      notifications,
      outcomes.map((o) => ({
        id: o.message.id,
        status: o.message.status,
        // A report can come before SENT is recorded (the sandbox answers at once): SENT then keeps no time of its own.
        sentAt: firstTime(o.message.sentAt, o.message.deliveredAt, o.message.readAt),
        replies: o.replies,
        optedOutByReply: o.optedOutByReply,
      })),
    );
  }
}

/** The earliest of the message's progress times (ISO text), or null. */
function firstTime(...times: Array<string | null>): Date | null {
  const known = times.filter((t): t is string => t !== null).map((t) => new Date(t).getTime());
  return known.length ? new Date(Math.min(...known)) : null;
}
