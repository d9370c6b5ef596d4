import type { Tariffs } from '@outreach/billing';
import { AppError, isRetryLater } from '@outreach/core';
import type { MessageQueries, SendMessage, SendMessageInput, SendMessageResult, WhatsappSenders } from '@outreach/messaging';
import { FixedClock, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import type { OrderRuleProps } from '../domain/order-rule';
import { InMemoryCommerceOrderRepository, InMemoryOrderNotificationRepository, InMemoryOrderRuleRepository } from '../testing';
import type { CrmConnections } from './crm-connections.service';
import { OrderNotifications } from './order-notifications.service';

/* OrderNotifications over in-memory ports (decisions.md 31.15): one notification per rule and order, and what each SendMessage answer becomes. */
function setup(answer: (input: SendMessageInput) => Promise<Partial<SendMessageResult>>) {
  const clock = new FixedClock(new Date('2026-11-25T10:00:00Z'));
  const rules = new InMemoryOrderRuleRepository();
  const notifications = new InMemoryOrderNotificationRepository();
  const orders = new InMemoryCommerceOrderRepository();
  const outbox = new RecordingOutbox();
  const sent: SendMessageInput[] = [];
  const send = {
    send: async (input: SendMessageInput) => {
      sent.push(input);
      return (await answer(input)) as SendMessageResult;
    },
  } as unknown as SendMessage;
  const senders = { list: async () => [{ id: 'sender-2', status: 'CONNECTED', isDefault: false }, { id: 'sender-1', status: 'CONNECTED', isDefault: true }] } as unknown as WhatsappSenders;
  const tariffs = { messageCostMinor: async () => 7 } as unknown as Tariffs;
  const service = new OrderNotifications(
    rules,
    notifications,
    orders,
    null as unknown as CrmConnections,
    senders,
    send,
    null as unknown as MessageQueries,
    tariffs,
    outbox,
    new RollbackUnitOfWork([]),
    clock,
  );
  const rule: OrderRuleProps = { id: 'rule-1', workspaceId: 'ws', connectionId: 'conn', event: 'ORDER_CREATED', templateId: 'tpl', preset: null, enabled: true, createdAt: clock.now(), updatedAt: clock.now() };
  void rules.insert(rule);
  const order = async (phone: string | null) =>
    orders.upsert({
      id: `o-${phone}`,
      workspaceId: 'ws',
      connectionId: 'conn',
      externalId: `x-${phone}`,
      name: '#1001',
      customerName: 'Ada',
      email: null,
      phone,
      currency: 'USD',
      totalValue: 19.5,
      financialStatus: null,
      fulfillmentStatus: null,
      cod: false,
      orderedAt: clock.now(),
      receivedAt: clock.now(),
      updatedAt: clock.now(),
    });
  const notify = async (phone: string | null) => {
    await service.onOrderEvent('ws', 'conn', 'ORDER_CREATED', await order(phone));
    return [...notifications.rows.values()].at(-1)!;
  };
  return { service, rules, notifications, outbox, sent, notify };
}

const message = (id: string, status: string, failureReason: string | null = null) => ({ message: { id, status, failureReason } }) as unknown as Pick<SendMessageResult, 'message'>;

describe('order notifications (ports faked)', () => {
  it('an order event writes one notification per enabled rule, with its job; the same event again writes nothing', async () => {
    const { service, notifications, outbox, rules } = setup(async () => message('m1', 'SENT'));
    await rules.insert({ ...(await rules.findById('rule-1'))!, id: 'rule-2', event: 'ORDER_PAID' });
    expect(await service.onOrderEvent('ws', 'conn', 'ORDER_CREATED', 'order-1')).toBe(1);
    expect(await service.onOrderEvent('ws', 'conn', 'ORDER_CREATED', 'order-1')).toBe(0);
    expect(await service.onOrderEvent('ws', 'conn', 'ORDER_CANCELLED', 'order-1')).toBe(0);
    expect([...notifications.rows.values()].map((n) => [n.ruleId, n.status])).toEqual([['rule-1', 'PENDING']]);
    expect(outbox.jobs.map((j) => j.name)).toEqual(['order-notification']);
  });

  it('sent: SENT with the message and the tariff; the order fills the variables; the default sender sends under the notification’s key', async () => {
    const { service, notifications, sent, notify } = setup(async () => ({ outcome: 'sent', ...message('m1', 'SENT') }));
    const n = await notify('+1 (415) 200-1003');
    await service.deliver({ notificationId: n.id });
    expect(notifications.rows.get(n.id)).toMatchObject({ status: 'SENT', messageId: 'm1', costMinor: 7, reason: null });
    expect(sent).toEqual([
      {
        workspaceId: 'ws',
        channel: 'WHATSAPP',
        senderId: 'sender-1',
        templateId: 'tpl',
        to: '+14152001003',
        variables: { contact: { name: 'Ada', phone: '+14152001003', email: null }, runtime: { order_id: '#1001', order_total: '19.50 USD' } },
        idempotencyKey: `crm-order-notification:${n.id}`,
      },
    ]);
    await service.deliver({ notificationId: n.id }); // settled: nothing is sent again
    expect(sent).toHaveLength(1);
  });

  it('refused for now: the job comes back later and the notification stays PENDING', async () => {
    const { service, notifications, notify } = setup(async () => ({ outcome: 'retry_later', ...message('m1', 'QUEUED') }));
    const n = await notify('+14152001003');
    const error = await service.deliver({ notificationId: n.id }).catch((e: unknown) => e);
    expect(isRetryLater(error)).toBe(true);
    expect(notifications.rows.get(n.id)!.status).toBe('PENDING');
  });

  it('opted out → SKIPPED; refusals no retry mends → FAILED with the code; the provider’s refusal → FAILED with its reason', async () => {
    const cases: Array<[() => Promise<Partial<SendMessageResult>>, object]> = [
      [() => Promise.reject(new AppError('contact_opted_out')), { status: 'SKIPPED', reason: 'contact_opted_out', messageId: null }],
      [() => Promise.reject(new AppError('template_not_approved')), { status: 'FAILED', reason: 'template_not_approved' }],
      [() => Promise.reject(new AppError('invalid_request')), { status: 'FAILED', reason: 'invalid_request' }],
      [async () => ({ outcome: 'failed', ...message('m9', 'FAILED', 'undeliverable') }), { status: 'FAILED', reason: 'undeliverable', messageId: 'm9', costMinor: 0 }],
    ];
    for (const [answer, expected] of cases) {
      const { service, notifications, notify } = setup(answer);
      const n = await notify('+14152001003');
      await service.deliver({ notificationId: n.id });
      expect(notifications.rows.get(n.id)).toMatchObject(expected);
    }
  });

  it('no phone, an unusable phone, a deleted or disabled rule: SKIPPED without asking messaging', async () => {
    const { service, notifications, rules, sent, notify } = setup(async () => ({ outcome: 'sent', ...message('m1', 'SENT') }));
    const none = await notify(null);
    const bad = await notify('12');
    await service.deliver({ notificationId: none.id });
    await service.deliver({ notificationId: bad.id });
    const disabled = await notify('+14152001004');
    await rules.update({ ...(await rules.findById('rule-1'))!, enabled: false });
    await service.deliver({ notificationId: disabled.id });
    await rules.update({ ...(await rules.findById('rule-1'))!, enabled: true });
    const deleted = await notify('+14152001005');
    await rules.delete('rule-1');
    await service.deliver({ notificationId: deleted.id });
    expect([none, bad, disabled, deleted].map((n) => notifications.rows.get(n.id)!.reason)).toEqual(['no_phone', 'invalid_phone', 'rule_disabled', 'rule_deleted']);
    expect(sent).toHaveLength(0);
  });
});
