import { createHmac, randomUUID } from 'node:crypto';
import { CredentialSealer, OrderNotifications } from '@outreach/crm';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { credit, expectError } from '../campaigns/campaign-helpers';
import { connectSender, createTemplate } from '../messaging/messaging-helpers';
import { waitFor } from '../support/tcp-proxy';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { connectSandbox, count } from './crm-helpers';

/*
 * Order-notification rules (decisions.md 31.14–31.16) on the real app, database and worker with
 * the sandbox CRM and the sandbox WhatsApp provider: the rule routes and their codes, order events
 * sent through messaging's SendMessage by the worker (opt-outs honoured, a redelivered order event
 * sends nothing twice), and the order-updates summary against a hand-computed fixture.
 */
const UNKNOWN = '3f1c2b8e-58a1-4b3c-9b2e-7d51c1d0e9a4';
const MINUTE = 60_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely, field by field
type Loose = Record<string, any>;

describe('order-notification rules and the order-updates summary (sandbox CRM, sandbox WhatsApp)', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;
  let conn: Loose;
  let secret: string;
  let templateId: string;

  const k = () => bearer(ws.key);
  const rules = (connectionId = conn.id as string) => `/crm/connections/${connectionId}/order-rules`;
  const ruleCount = () => count(t, `SELECT count(*)::int AS n FROM crm_order_rules WHERE workspace_id = $1`, [ws.workspaceId]);
  const templateCount = () => count(t, `SELECT count(*)::int AS n FROM whatsapp_templates WHERE workspace_id = $1`, [ws.workspaceId]);

  /** A sandbox webhook of order events, signed as the sandbox signs. */
  async function sendOrders(orders: Loose[]): Promise<Loose> {
    const body = JSON.stringify({ orders });
    const res = await t.http
      .post(`/crm/webhooks/${conn.id}`)
      .set('content-type', 'application/json')
      .set('x-sandbox-signature', createHmac('sha256', secret).update(body).digest('hex'))
      .send(body);
    expect(res.status).toBe(200);
    return res.body;
  }

  const order = (id: string, event: string, phone: string | null, totalValue: number, minutesAgo: number, extra: Loose = {}) => ({
    event,
    id,
    name: `#${id}`,
    customerName: 'Ada Lovelace',
    phone,
    currency: 'USD',
    totalValue,
    orderedAt: new Date(Date.now() - minutesAgo * MINUTE).toISOString(),
    ...extra,
  });

  const notificationsSettled = () =>
    waitFor('order notifications settled', async () => (await count(t, `SELECT count(*)::int AS n FROM crm_order_notifications WHERE workspace_id = $1 AND status = 'PENDING'`, [ws.workspaceId])) === 0, 30_000, 100);

  beforeAll(async () => {
    t = await TestApp.create();
    worker = await WorkerApp.create({ root: WorkerModule });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });

  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ features: ['crm', 'whatsapp'] });
    await credit(t, ws.workspaceId);
    ({ connection: conn, webhookSecret: secret } = await connectSandbox(t, ws.key));
    const sender = await connectSender(t, ws.key, '+14152009999');
    const template = await createTemplate(t, ws.key, {
      body: 'Hi {{1}}, order {{2}} ({{3}}) is confirmed.',
      footer: null,
      bindings: [
        { placeholder: 1, source: 'CONTACT_FIELD', value: 'name' },
        { placeholder: 2, source: 'RUNTIME', value: 'order_id' },
        { placeholder: 3, source: 'RUNTIME', value: 'order_total' },
      ],
    });
    templateId = template.id as string;
    await t.http.post(`/whatsapp/templates/${templateId}/submit`).set(k());
    await waitFor('sender CONNECTED and template APPROVED', async () => {
      const [s, tp] = await Promise.all([t.http.get(`/whatsapp/senders/${sender.id}`).set(k()), t.http.get(`/whatsapp/templates/${templateId}`).set(k())]);
      return s.body.status === 'CONNECTED' && tp.body.status === 'APPROVED';
    }, 20_000);
  });

  it('rules: create (template or preset), list, get, update, delete; every refusal changes nothing', async () => {
    const other = await t.seed({ features: ['crm', 'whatsapp'] });
    const foreignTemplate = await createTemplate(t, other.key);
    const templatesBefore = await templateCount();

    expectError(await t.http.post(rules()).set(k()).send({ event: 'ORDER_CREATED' }), 400, 'template_or_preset_required');
    expectError(await t.http.post(rules()).set(k()).send({ event: 'ORDER_CREATED', templateId: null, preset: null }), 400, 'template_or_preset_required');
    for (const id of [UNKNOWN, 'not-a-uuid', foreignTemplate.id]) {
      expectError(await t.http.post(rules()).set(k()).send({ event: 'ORDER_CREATED', templateId: id }), 400, 'template_not_found');
    }
    expectError(await t.http.post(rules()).set(k()).send({ event: 'ORDER_CREATED', templateId, preset: 'order_shipped' }), 400, 'invalid_body');
    expectError(await t.http.post(rules()).set(k()).send({ event: 'ORDER_SHIPPED', templateId }), 400, 'invalid_body');
    expectError(await t.http.post(rules()).set(k()).send({ event: 'ORDER_CREATED', preset: 'birthday' }), 400, 'invalid_body');
    expectError(await t.http.post(rules(UNKNOWN)).set(k()).send({ event: 'ORDER_CREATED', templateId }), 404, 'crm_connection_not_found');
    expectError(await t.http.post(rules()).set(bearer(other.key)).send({ event: 'ORDER_CREATED', templateId }), 404, 'crm_connection_not_found');
    // A CRM that tells no orders (Pipedrive, connected by a person's sign-in).
    const pipedrive = randomUUID();
    await t.dataSource.query(
      `INSERT INTO crm_connections (id, workspace_id, slug, status, provider_email, sealed_credentials, has_webhook_secret, webhook_topics, connected_at)
       VALUES ($1, $2, 'pipedrive', 'ACTIVE', 'jane@pipedrive.example', $3, false, '{"subscribed":[],"failed":[],"checkedAt":"2026-01-01T00:00:00.000Z"}', now())`,
      [pipedrive, ws.workspaceId, t.get(CredentialSealer).seal({ accessToken: 'token' }, pipedrive)],
    );
    expectError(await t.http.post(rules(pipedrive)).set(k()).send({ event: 'ORDER_CREATED', templateId }), 400, 'invalid_request');
    const off = await t.seed({ features: ['whatsapp'] });
    expectError(await t.http.post(rules()).set(bearer(off.key)).send({ event: 'ORDER_CREATED', templateId }), 403, 'feature_not_available');
    expectError(await t.http.get(rules()).set(bearer(off.key)), 403, 'feature_not_available');
    expect(await ruleCount()).toBe(0);
    expect(await templateCount()).toBe(templatesBefore);

    const created = await t.http.post(rules()).set(k()).send({ event: 'ORDER_CREATED', templateId });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['connectionId', 'createdAt', 'enabled', 'event', 'id', 'preset', 'templateId', 'updatedAt']);
    expect(created.body).toMatchObject({ connectionId: conn.id, event: 'ORDER_CREATED', templateId, preset: null, enabled: true });
    // One rule per event.
    expectError(await t.http.post(rules()).set(k()).send({ event: 'ORDER_CREATED', preset: 'order_confirmation' }), 400, 'invalid_request');
    expect(await templateCount()).toBe(templatesBefore);

    // A preset becomes a template of the workspace, submitted for review, and is reused.
    const shipped = await t.http.post(rules()).set(k()).send({ event: 'ORDER_FULFILLED', preset: 'order_shipped' });
    expect(shipped.status).toBe(201);
    const preset = await t.http.get(`/whatsapp/templates/${shipped.body.templateId}`).set(k());
    expect(preset.body).toMatchObject({ name: 'order_shipped_update', language: 'en', category: 'UTILITY', bindings: [{ placeholder: 1, source: 'RUNTIME', value: 'order_id' }] });
    expect(['PENDING', 'APPROVED']).toContain(preset.body.status);
    const paid = await t.http.post(rules()).set(k()).send({ event: 'ORDER_PAID', preset: 'order_shipped', enabled: false });
    expect(paid.body).toMatchObject({ templateId: shipped.body.templateId, enabled: false });
    expect(await templateCount()).toBe(templatesBefore + 1);

    const list = await t.http.get(rules()).set(k());
    expect(list.status).toBe(200);
    expect(list.body.rules.map((r: Loose) => r.event)).toEqual(['ORDER_CREATED', 'ORDER_FULFILLED', 'ORDER_PAID']);
    expect((await t.http.get(`${rules()}/${created.body.id}`).set(k())).body).toEqual(created.body);

    const patched = await t.http.patch(`${rules()}/${paid.body.id}`).set(k()).send({ enabled: true, templateId });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ enabled: true, templateId, preset: null, event: 'ORDER_PAID' });
    expectError(await t.http.patch(`${rules()}/${paid.body.id}`).set(k()).send({}), 400, 'no_fields_to_update');
    expectError(await t.http.patch(`${rules()}/${paid.body.id}`).set(k()).send({ event: 'ORDER_CREATED' }), 400, 'invalid_request');
    expectError(await t.http.patch(`${rules()}/${paid.body.id}`).set(k()).send({ templateId: UNKNOWN }), 400, 'template_not_found');
    expectError(await t.http.patch(`${rules()}/${paid.body.id}`).set(k()).send({ templateId: null, preset: null }), 400, 'template_or_preset_required');
    expect((await t.http.get(`${rules()}/${paid.body.id}`).set(k())).body).toEqual(patched.body);

    expect((await t.http.delete(`${rules()}/${paid.body.id}`).set(k())).status).toBe(204);
    expectError(await t.http.get(`${rules()}/${paid.body.id}`).set(k()), 404, 'not_found');
    expectError(await t.http.delete(`${rules()}/${paid.body.id}`).set(k()), 404, 'not_found');
    expect(await ruleCount()).toBe(2);

    expect((await t.http.delete(`/crm/connections/${conn.id}`).set(k())).status).toBe(204);
    expectError(await t.http.post(rules()).set(k()).send({ event: 'ORDER_CANCELLED', templateId }), 400, 'crm_connection_not_active');
    expect(await ruleCount()).toBe(2);
  });

  it('order events are sent through messaging by the worker (opt-outs honoured, nothing twice); the summary matches a hand count', async () => {
    await t.http.post(rules()).set(k()).send({ event: 'ORDER_CREATED', templateId });
    const shipped = await t.http.post(rules()).set(k()).send({ event: 'ORDER_FULFILLED', preset: 'order_shipped' });
    await waitFor('preset template APPROVED', async () => (await t.http.get(`/whatsapp/templates/${shipped.body.templateId}`).set(k())).body.status === 'APPROVED', 20_000);

    // The sandbox decides by the phone's last digit: 3 read, 4 read + reply STOP, 0 undeliverable, 2 delivered, 7 read.
    const read = '+14152001003';
    const stop = '+1 (415) 200-1004';
    const bounce = '+14152001010';
    const delivered = '+14152001012';
    const o1 = order('1001', 'ORDER_CREATED', read, 100, 90);
    const batch = [
      o1,
      order('1002', 'ORDER_CREATED', stop, 50, 30, { cod: true }),
      order('1003', 'ORDER_CREATED', bounce, 25, 20),
      order('1004', 'ORDER_CREATED', null, 10, 10),
      order('1006', 'ORDER_CREATED', delivered, 20, 60, { currency: 'EUR' }),
      order('1007', 'ORDER_CREATED', '+14152001017', 1000, 40 * 24 * 60), // outside a 30-day window
    ];
    expect(await sendOrders(batch)).toMatchObject({ orders: 6, notifications: 6 });
    await notificationsSettled();
    await waitFor('the STOP reply recorded as an opt-out', async () => (await count(t, `SELECT count(*)::int AS n FROM message_opt_outs WHERE workspace_id = $1`, [ws.workspaceId])) === 1, 20_000);
    await waitFor('the undeliverable message FAILED', async () => (await count(t, `SELECT count(*)::int AS n FROM messages WHERE address = $1 AND status = 'FAILED'`, [bounce])) === 1, 20_000);

    // The opted-out customer orders again: nothing is sent to them.
    expect(await sendOrders([order('1005', 'ORDER_CREATED', stop, 5, 5)])).toMatchObject({ orders: 1, notifications: 1 });
    // #1001 ships (the preset), and its creation is delivered again by the shop (no second notification).
    expect(await sendOrders([{ ...o1, event: 'ORDER_FULFILLED', fulfillmentStatus: 'fulfilled' }, o1])).toMatchObject({ orders: 2, notifications: 1 });
    await notificationsSettled();
    await waitFor('the shipping update read', async () => (await count(t, `SELECT count(*)::int AS n FROM messages WHERE address = $1 AND status = 'READ'`, [read])) === 2, 20_000);

    await waitFor('every report applied', async () => (await count(t, `SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND status IN ('QUEUED', 'SENT')`, [ws.workspaceId])) === 0, 20_000);

    const statuses = await t.dataSource.query(
      `SELECT o.external_id, n.event, n.status, n.reason FROM crm_order_notifications n JOIN commerce_orders o ON o.id = n.order_id WHERE n.workspace_id = $1 ORDER BY o.external_id, n.event`,
      [ws.workspaceId],
    );
    expect(statuses).toEqual([
      { external_id: '1001', event: 'ORDER_CREATED', status: 'SENT', reason: null },
      { external_id: '1001', event: 'ORDER_FULFILLED', status: 'SENT', reason: null },
      { external_id: '1002', event: 'ORDER_CREATED', status: 'SENT', reason: null },
      { external_id: '1003', event: 'ORDER_CREATED', status: 'SENT', reason: null },
      { external_id: '1004', event: 'ORDER_CREATED', status: 'SKIPPED', reason: 'no_phone' },
      { external_id: '1005', event: 'ORDER_CREATED', status: 'SKIPPED', reason: 'contact_opted_out' },
      { external_id: '1006', event: 'ORDER_CREATED', status: 'SENT', reason: null },
      { external_id: '1007', event: 'ORDER_CREATED', status: 'SENT', reason: null },
    ]);
    // One message per notification sent, none twice; none to the opted-out customer after the STOP.
    expect(await count(t, `SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND direction = 'OUTBOUND'`, [ws.workspaceId])).toBe(6);
    expect(await count(t, `SELECT count(*)::int AS n FROM messages WHERE address = $1 AND direction = 'OUTBOUND'`, ['+14152001004'])).toBe(1);
    const [first] = await t.dataSource.query(`SELECT body FROM messages WHERE address = $1 AND direction = 'OUTBOUND' ORDER BY created_at LIMIT 1`, [read]);
    expect(first.body).toBe('Hi Ada Lovelace, order #1001 (100.00 USD) is confirmed.');

    // The hand count for the last 30 days (#1007 is older): six orders, five with a phone; attempted
    // #1001 ×2, #1002, #1003, #1006; notified #1001, #1002, #1006 (#1003's message failed);
    // delivered #1001 ×2, #1002, #1006; read #1001 ×2, #1002; one reply (STOP); opt-outs: that
    // reply and #1005 refused; first updates 90, 30 and 60 minutes after the orders (median 60).
    const debited = await count(
      t,
      `SELECT coalesce(sum(l.amount_minor), 0)::int AS n FROM ledger_entries l JOIN crm_order_notifications n ON n.message_id::text = l.reference
        JOIN commerce_orders o ON o.id = n.order_id WHERE l.debit_kind = 'message' AND o.external_id <> '1007' AND n.workspace_id = $1`,
      [ws.workspaceId],
    );
    expect(debited).toBeGreaterThan(0);
    const summary = await t.http.get(`/crm/connections/${conn.id}/order-updates/summary?days=30`).set(k());
    expect(summary.status).toBe(200);
    const { medianMinutesToFirstUpdate, ...rest } = summary.body;
    expect(rest).toEqual({
      orders: 6,
      ordersWithPhone: 5,
      ordersNotified: 3,
      attempted: 5,
      delivered: 4,
      read: 3,
      failed: 1,
      clicks: 0,
      replies: 1,
      spend: debited / 100,
      costPerNotifiedOrder: Math.round((debited / 100 / 3) * 10_000) / 10_000,
      optOuts: 2,
      shippedNotified: 1,
      notifiedValue: 170,
      totalValue: 210,
      codOrders: 1,
      currencies: ['EUR', 'USD'],
    });
    expect(medianMinutesToFirstUpdate).toBeGreaterThanOrEqual(60);
    expect(medianMinutesToFirstUpdate).toBeLessThan(61);
    expect((await t.http.get(`/crm/connections/${conn.id}/order-updates/summary?days=60`).set(k())).body).toMatchObject({ orders: 7, ordersNotified: 4, attempted: 6, notifiedValue: 1170 });

    // A job run again after a crash between the send and its record (the row still PENDING) sends
    // nothing new: SendMessage answers the first message for the notification's key.
    const [sent] = await t.dataSource.query(
      `SELECT n.id, n.message_id FROM crm_order_notifications n JOIN commerce_orders o ON o.id = n.order_id WHERE o.external_id = '1006' AND n.workspace_id = $1`,
      [ws.workspaceId],
    );
    await t.dataSource.query(`UPDATE crm_order_notifications SET status = 'PENDING', message_id = NULL WHERE id = $1`, [sent.id]);
    await t.get(OrderNotifications).deliver({ notificationId: sent.id });
    expect((await t.dataSource.query(`SELECT status, message_id FROM crm_order_notifications WHERE id = $1`, [sent.id]))[0]).toEqual({ status: 'SENT', message_id: sent.message_id });
    expect(await count(t, `SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND direction = 'OUTBOUND'`, [ws.workspaceId])).toBe(6);

    // A disabled rule sends nothing.
    await t.http.patch(`${rules()}/${shipped.body.id}`).set(k()).send({ enabled: false });
    expect(await sendOrders([{ ...order('1006', 'ORDER_FULFILLED', delivered, 20, 60, { currency: 'EUR' }) }])).toMatchObject({ orders: 1, notifications: 0 });
  });
});
