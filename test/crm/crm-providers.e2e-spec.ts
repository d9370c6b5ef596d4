import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CredentialSealer } from '@outreach/crm';
import { createCampaign, expectError } from '../campaigns/campaign-helpers';
import { startWorker } from '../engine/engine-harness';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { waitFor } from '../support/tcp-proxy';
import { WorkerApp } from '../support/worker-app';
import { count } from './crm-helpers';
import { HUBSPOT_TOKEN, PIPEDRIVE_TOKEN, shopifyCustomer, SHOPIFY_TOKEN, StubCrmServer } from './stub-crm-server';

/*
 * The real adapters against a local stub speaking HubSpot's, Shopify's and Pipedrive's request,
 * response and webhook-signature shapes (test/crm/stub-crm-server.ts, fixtures in
 * test/fixtures/crm/): connect, segments, imports paged the provider's way, an outage and rate
 * limits in the middle of an import (resumed, no duplicates), upstream failures as the contract's
 * 502s, and signed webhooks (HubSpot v3, Shopify HMAC).
 */
const stub = new StubCrmServer();
const PUBLIC = 'https://outreach.test';

describe('CRM provider adapters (local stub servers)', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;

  const http = () => t.http;
  const contactsOf = (campaignId: string) => count(t, `SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1`, [campaignId]);
  const distinctPhones = (campaignId: string) => count(t, `SELECT count(DISTINCT phone)::int AS n FROM campaign_contacts WHERE campaign_id = $1`, [campaignId]);

  async function connect(slug: string, credentials: Record<string, string>) {
    return http().post('/crm/connections').set(bearer(ws.key)).send({ slug, credentials });
  }

  async function importInto(connectionId: string, segmentId?: string) {
    const campaign = await createCampaign(t, ws.key, { source: 'CRM_MANUAL' });
    const res = await http().post(`/campaigns/${campaign.id}/crm-imports`).set(bearer(ws.key)).send({ connectionId, ...(segmentId ? { segmentId } : {}) });
    expect(res.status).toBe(202);
    const done = await waitFor(
      'import finished',
      async () => {
        const r = await http().get(`/campaigns/${campaign.id}/crm-imports/${res.body.id}`).set(bearer(ws.key));
        return ['completed', 'failed'].includes(r.body.status) ? r.body : null;
      },
      60_000,
      100,
    );
    return { campaignId: campaign.id, done };
  }

  beforeAll(async () => {
    await stub.start();
    Object.assign(process.env, {
      PUBLIC_BASE_URL: PUBLIC,
      CRM_HUBSPOT_API_URL: stub.url,
      CRM_SHOPIFY_API_URL: stub.url,
      CRM_PIPEDRIVE_API_URL: stub.url,
      CRM_HTTP_TIMEOUT_MS: '2000',
      CRM_RETRY_BASE_MS: '20',
      CRM_RETRY_MAX_FAILURES: '6',
      CRM_IMPORT_PAGE_SIZE: '100',
    });
    t = await TestApp.create();
    worker = await startWorker();
  });

  beforeEach(async () => {
    stub.reset();
    ws = await t.seed({ features: ['crm'] });
  });

  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await stub.stop();
  });

  describe('HubSpot', () => {
    const secret = `hubspot-client-secret-${randomUUID()}`;

    it('connect: the private-app token as a Bearer header; 400 invalid_credentials on a 401; the token is never answered', async () => {
      expectError(await connect('hubspot', { accessToken: 'pat-na1-wrong', clientSecret: secret }), 400, 'invalid_credentials');
      expectError(await connect('hubspot', { clientSecret: secret }), 400, 'invalid_credentials');
      expect(await count(t, `SELECT count(*)::int AS n FROM crm_connections WHERE workspace_id = $1`, [ws.workspaceId])).toBe(0);
      const res = await connect('hubspot', { accessToken: HUBSPOT_TOKEN, clientSecret: secret });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        slug: 'hubspot',
        name: 'HubSpot',
        providerEmail: 'owner@acme.example',
        display: { portalId: 62515, uiDomain: 'app.hubspot.com' },
        missingScopes: [],
        hasWebhookSecret: true,
        webhookUrl: `${PUBLIC}/crm/webhooks/${res.body.id}`,
      });
      expect(JSON.stringify(res.body)).not.toContain(HUBSPOT_TOKEN);
      expect(JSON.stringify(res.body)).not.toContain(secret);
      expect(stub.seen(/^\/account-info\/v3\/details$/).at(-1)!.headers.authorization).toBe(`Bearer ${HUBSPOT_TOKEN}`);
    });

    it('upstream failures on connect: 502 provider_error with upstreamStatus, 502 crm_upstream_error, 502 crm_upstream_unavailable; nothing stored', async () => {
      stub.failNext(1, /^\/account-info/, { status: 500 });
      const five = await connect('hubspot', { accessToken: HUBSPOT_TOKEN });
      expectError(five, 502, 'provider_error');
      expect(five.body.upstreamStatus).toBe(500);
      stub.failNext(1, /^\/account-info/, { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>maintenance</html>' });
      expectError(await connect('hubspot', { accessToken: HUBSPOT_TOKEN }), 502, 'crm_upstream_error');
      stub.failNext(1, /^\/account-info/, { status: 0 });
      expectError(await connect('hubspot', { accessToken: HUBSPOT_TOKEN }), 502, 'crm_upstream_unavailable');
      expect(JSON.stringify(five.body)).not.toContain(HUBSPOT_TOKEN);
      expect(await count(t, `SELECT count(*)::int AS n FROM crm_connections WHERE workspace_id = $1`, [ws.workspaceId])).toBe(0);
    });

    it('a list as a segment: memberships paged by `after`, members read in batches; an unknown list is 404 crm_resource_not_found', async () => {
      stub.hubspotContacts = 400;
      stub.hubspotLists.set('77', Array.from({ length: 250 }, (_, k) => k + 1));
      const conn = (await connect('hubspot', { accessToken: HUBSPOT_TOKEN })).body;
      const campaign = await createCampaign(t, ws.key, { source: 'CRM_MANUAL' });
      expectError(
        await http().post(`/campaigns/${campaign.id}/crm-imports`).set(bearer(ws.key)).send({ connectionId: conn.id, segmentId: '999' }),
        404,
        'crm_resource_not_found',
      );
      const { campaignId, done } = await importInto(conn.id, '77');
      expect(done).toMatchObject({ status: 'completed', total: 250, read: 250, imported: 250, pages: 3 });
      expect(await contactsOf(campaignId)).toBe(250);
      expect(stub.seen(/^\/crm\/v3\/lists\/77\/memberships$/).map((r) => r.query.get('after'))).toEqual([null, '100', '200']);
      expect(stub.seen(/batch\/read$/)).toHaveLength(3);
    });

    it('an outage in the middle of an import (503s, a dropped connection, 429s) is waited out: the import resumes from its cursor, no duplicates', async () => {
      stub.hubspotContacts = 730;
      const conn = (await connect('hubspot', { accessToken: HUBSPOT_TOKEN })).body;
      // Pages 1-3 answer; then 3 × 503, a dropped connection, 2 × 429, and the CRM is back.
      const hold = stub.hold(/^\/crm\/v3\/objects\/contacts$/, 3);
      const started = importInto(conn.id);
      await waitFor('three pages read', () => stub.seen(/^\/crm\/v3\/objects\/contacts$/).length >= 4);
      stub.failNext(3, /^\/crm\/v3\/objects\/contacts$/, { status: 503 });
      stub.failNext(1, /^\/crm\/v3\/objects\/contacts$/, { status: 0 });
      stub.failNext(2, /^\/crm\/v3\/objects\/contacts$/, { status: 429, headers: { 'retry-after': '0' } });
      hold();
      const { campaignId, done } = await started;
      expect(done).toMatchObject({ status: 'completed', read: 730, imported: 730, duplicates: 0, pages: 8, error: null });
      expect(await contactsOf(campaignId)).toBe(730);
      expect(await distinctPhones(campaignId)).toBe(730);
      const afters = stub.seen(/^\/crm\/v3\/objects\/contacts$/).map((r) => r.query.get('after'));
      expect(afters.filter((a) => a === '300')).toHaveLength(7); // the held request, 6 failures, then the answer
      expect(afters.filter((a) => a === '200')).toHaveLength(1); // pages already committed are not read again
    });

    it('an outage that outlasts CRM_RETRY_MAX_FAILURES fails the import with the upstream code', async () => {
      stub.hubspotContacts = 50;
      const conn = (await connect('hubspot', { accessToken: HUBSPOT_TOKEN })).body;
      stub.failNext(20, /^\/crm\/v3\/objects\/contacts$/, { status: 503 });
      const { campaignId, done } = await importInto(conn.id);
      expect(done).toMatchObject({ status: 'failed', error: 'provider_error', read: 0 });
      expect(await contactsOf(campaignId)).toBe(0);
      // Six page requests (connect's own probe asked limit=1 before the outage).
      expect(stub.seen(/^\/crm\/v3\/objects\/contacts$/).filter((r) => r.query.get('limit') === '100')).toHaveLength(6);
    });

    it('webhooks v3: the contact is read from the API; a bad signature or a request older than 5 minutes is 401 and stores nothing', async () => {
      stub.hubspotContacts = 10;
      const conn = (await connect('hubspot', { accessToken: HUBSPOT_TOKEN, clientSecret: secret })).body;
      const body = JSON.stringify([{ eventId: 1, subscriptionId: 2, portalId: 62515, appId: 3, occurredAt: Date.now(), subscriptionType: 'contact.creation', attemptNumber: 0, objectId: 105, changeSource: 'CRM_UI' }]);
      const send = (timestamp: number, key = secret) => {
        const signature = createHmac('sha256', key).update(`POST${conn.webhookUrl}${body}${timestamp}`).digest('base64');
        return http()
          .post(`/crm/webhooks/${conn.id}`)
          .set('content-type', 'application/json')
          .set('x-hubspot-signature-v3', signature)
          .set('x-hubspot-request-timestamp', String(timestamp))
          .send(body);
      };
      expectError(await send(Date.now(), 'another-secret'), 401, 'unauthorized');
      expectError(await send(Date.now() - 6 * 60 * 1000), 401, 'unauthorized');
      expect(await count(t, `SELECT count(*)::int AS n FROM crm_webhook_events WHERE connection_id = $1`, [conn.id])).toBe(0);
      const ok = await send(Date.now());
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ received: 1, delivered: 0, deferred: 1, duplicates: 0, invalid: 0, orders: 0, notifications: 0 });
      expect((await send(Date.now())).body).toMatchObject({ duplicates: 1, deferred: 0 });
      const [event] = await t.dataSource.query(`SELECT record_id, contact FROM crm_webhook_events WHERE connection_id = $1`, [conn.id]);
      expect(event.record_id).toBe('105');
      expect(event.contact.phone).toBe('+1 617 200 0005');
    });
  });

  describe('Shopify', () => {
    const webhookSecret = `shpss_${randomUUID()}`;
    const credentials = { shopDomain: 'jsmith.myshopify.com', accessToken: SHOPIFY_TOKEN, webhookSecret };

    it('connect with X-Shopify-Access-Token; missing scopes reported; 400 invalid_credentials for a bad token or shop domain', async () => {
      expectError(await connect('shopify', { ...credentials, accessToken: 'shpat_wrong' }), 400, 'invalid_credentials');
      expectError(await connect('shopify', { ...credentials, shopDomain: 'evil.example.com' }), 400, 'invalid_credentials');
      const res = await connect('shopify', credentials);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ providerEmail: 'j.smith@example.com', missingScopes: ['read_orders'], display: { shopName: 'John Smith Test Store', currency: 'USD' } });
      expect(stub.seen(/shop\.json$/).at(-1)!.headers['x-shopify-access-token']).toBe(SHOPIFY_TOKEN);
      expect(JSON.stringify(res.body)).not.toContain(SHOPIFY_TOKEN);
    });

    it('customers paged by the Link header’s page_info; the address phone stands in for a missing one', async () => {
      stub.shopifyCustomers = 260;
      const conn = (await connect('shopify', credentials)).body;
      const { campaignId, done } = await importInto(conn.id);
      expect(done).toMatchObject({ status: 'completed', read: 260, imported: 260, pages: 3 });
      expect(await distinctPhones(campaignId)).toBe(260);
      const cursors = stub.seen(/customers\.json$/).map((r) => r.query.get('page_info'));
      expect(cursors).toEqual([null, Buffer.from('100').toString('base64url'), Buffer.from('200').toString('base64url')]);
      const [c4] = await t.dataSource.query(`SELECT phone, name FROM campaign_contacts WHERE campaign_id = $1 AND fields->>'crm_record_id' = $2`, [campaignId, String(shopifyCustomer(4).id)]);
      expect(c4).toEqual({ phone: '+18592000004', name: 'Customer 4' });
    });

    it('webhooks: X-Shopify-Hmac-Sha256 over the raw body; customers/create kept; a bad HMAC is 401', async () => {
      const conn = (await connect('shopify', credentials)).body;
      const body = JSON.stringify(shopifyCustomer(9));
      const hmac = (key: string) => createHmac('sha256', key).update(body).digest('base64');
      const send = (signature: string) =>
        http().post(`/crm/webhooks/${conn.id}`).set('content-type', 'application/json').set('x-shopify-topic', 'customers/create').set('x-shopify-hmac-sha256', signature).send(body);
      expectError(await send(hmac('wrong')), 401, 'unauthorized');
      expect((await send(hmac(webhookSecret))).body).toEqual({ received: 1, delivered: 0, deferred: 1, duplicates: 0, invalid: 0, orders: 0, notifications: 0 });
      expect((await http().get(`/crm/connections/${conn.id}`).set(bearer(ws.key))).body.deferredEventCount).toBe(1);
    });
  });

  describe('Shopify orders (commerce)', () => {
    const webhookSecret = `shpss_${randomUUID()}`;
    const credentials = { shopDomain: 'jsmith.myshopify.com', accessToken: SHOPIFY_TOKEN, webhookSecret };
    const base = JSON.parse(readFileSync(join(__dirname, '../fixtures/crm/shopify-order.json'), 'utf8'));
    const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 3600 * 1000).toISOString();

    async function sendOrder(connectionId: string, topic: string, order: Record<string, unknown>) {
      const body = JSON.stringify(order);
      const res = await http()
        .post(`/crm/webhooks/${connectionId}`)
        .set('content-type', 'application/json')
        .set('x-shopify-topic', topic)
        .set('x-shopify-hmac-sha256', createHmac('sha256', webhookSecret).update(body).digest('base64'))
        .send(body);
      expect(res.status).toBe(200);
      return res.body;
    }

    it('orders/* webhooks are stored once per order; GET /commerce/orders pages them (400 invalid_params); the summary matches a hand count', async () => {
      const conn = (await connect('shopify', credentials)).body;
      // #1001 USD 199.65 with a phone (2 days ago); #1002 USD 50.00 cash on delivery, no phone (1 day ago);
      // #1003 EUR 20.35 with a shipping phone (40 days ago); then #1001 fulfilled (an update, not a fourth order).
      const o1 = { ...base, id: 9001, name: '#1001', created_at: daysAgo(2) };
      const o2 = { ...base, id: 9002, name: '#1002', total_price: '50.00', phone: null, payment_gateway_names: ['Cash on Delivery (COD)'], created_at: daysAgo(1), customer: { ...base.customer, phone: null }, shipping_address: null, billing_address: null };
      const o3 = { ...base, id: 9003, name: '#1003', currency: 'EUR', total_price: '20.35', phone: null, payment_gateway_names: ['manual'], created_at: daysAgo(40) };
      expect(await sendOrder(conn.id, 'orders/create', o1)).toMatchObject({ orders: 1, received: 0 });
      await sendOrder(conn.id, 'orders/create', o2);
      await sendOrder(conn.id, 'orders/create', o3);
      await sendOrder(conn.id, 'orders/fulfilled', { ...o1, fulfillment_status: 'fulfilled' });
      expect(await count(t, `SELECT count(*)::int AS n FROM commerce_orders WHERE connection_id = $1`, [conn.id])).toBe(3);

      const page1 = await http().get('/commerce/orders?page=1&limit=2').set(bearer(ws.key));
      expect(page1.status).toBe(200);
      expect({ ...page1.body, items: page1.body.items.map((o: { name: string }) => o.name) }).toEqual({ items: ['#1002', '#1001'], page: 1, limit: 2, total: 3 });
      expect(page1.body.items[1]).toMatchObject({ fulfillmentStatus: 'fulfilled', phone: '+16136120707', totalValue: 199.65, cod: false, currency: 'USD' });
      expect(page1.body.items[0]).toMatchObject({ cod: true, phone: null });
      const page2 = await http().get('/commerce/orders?page=2&limit=2').set(bearer(ws.key));
      expect(page2.body.items.map((o: { name: string }) => o.name)).toEqual(['#1003']);
      expect((await http().get('/commerce/orders').set(bearer(ws.key))).body).toMatchObject({ page: 1, limit: 20, total: 3 });
      for (const q of ['page=0', 'limit=0', 'limit=101', 'limit=ten', 'page=1.5', 'page=-1']) {
        expectError(await http().get(`/commerce/orders?${q}`).set(bearer(ws.key)), 400, 'invalid_params');
      }
      expectError(await http().get('/commerce/orders?sort=asc').set(bearer(ws.key)), 400, 'invalid_query');
      const other = await t.seed({ features: ['crm'] });
      expect((await http().get('/commerce/orders').set(bearer(other.key))).body).toEqual({ items: [], page: 1, limit: 20, total: 0 });

      const summary = (q: string) => http().get(`/crm/connections/${conn.id}/order-updates/summary${q}`).set(bearer(ws.key));
      const none = { ordersNotified: 0, attempted: 0, delivered: 0, read: 0, failed: 0, clicks: 0, replies: 0, spend: 0, costPerNotifiedOrder: 0, medianMinutesToFirstUpdate: 0, optOuts: 0, shippedNotified: 0, notifiedValue: 0 };
      expect((await summary('')).body).toEqual({ ...none, orders: 2, ordersWithPhone: 1, totalValue: 249.65, codOrders: 1, currencies: ['USD'] });
      expect((await summary('?days=60')).body).toEqual({ ...none, orders: 3, ordersWithPhone: 2, totalValue: 270, codOrders: 1, currencies: ['EUR', 'USD'] });
      expect((await summary('?days=1.5')).body).toMatchObject({ orders: 1, totalValue: 50 });
      for (const q of ['?days=0', '?days=366', '?days=-3', '?days=soon']) expectError(await summary(q), 400, 'invalid_query');
      expectError(await http().get(`/crm/connections/${conn.id}/order-updates/summary`).set(bearer(other.key)), 404, 'crm_connection_not_found');

      // Shopify's orders/cancelled fires an ORDER_CANCELLED rule (decisions.md 31.14); with no WhatsApp sender it fails.
      expect((await http().post(`/crm/connections/${conn.id}/order-rules`).set(bearer(ws.key)).send({ event: 'ORDER_CANCELLED', preset: 'order_cancelled' })).status).toBe(201);
      expect(await sendOrder(conn.id, 'orders/cancelled', { ...o1, cancelled_at: daysAgo(0) })).toMatchObject({ orders: 1, notifications: 1 });
      expect(await sendOrder(conn.id, 'orders/create', o2)).toMatchObject({ orders: 1, notifications: 0 });
      await waitFor('the update settled', async () => {
        const [n] = await t.dataSource.query(`SELECT event, status, reason FROM crm_order_notifications WHERE connection_id = $1`, [conn.id]);
        return n?.status !== 'PENDING' ? n : null;
      });
      expect(await t.dataSource.query(`SELECT event, status, reason FROM crm_order_notifications WHERE connection_id = $1`, [conn.id])).toEqual([
        { event: 'ORDER_CANCELLED', status: 'FAILED', reason: 'no_whatsapp_sender' },
      ]);
    });
  });

  describe('Pipedrive (OAuth)', () => {
    it('API-key connect is refused (400 provider_not_api_key); a connection made by a person’s sign-in imports persons by start/limit', async () => {
      expectError(await connect('pipedrive', { accessToken: PIPEDRIVE_TOKEN }), 400, 'provider_not_api_key');
      stub.pipedrivePersons = 120;
      // As the operator's OAuth connect stores it: the access token sealed to the connection.
      const id = randomUUID();
      const sealed = t.get(CredentialSealer).seal({ accessToken: PIPEDRIVE_TOKEN }, id);
      await t.dataSource.query(
        `INSERT INTO crm_connections (id, workspace_id, slug, status, provider_email, sealed_credentials, has_webhook_secret, webhook_topics, connected_at)
         VALUES ($1, $2, 'pipedrive', 'ACTIVE', 'jane@pipedrive.example', $3, false, '{"subscribed":[],"failed":[],"checkedAt":"2026-01-01T00:00:00.000Z"}', now())`,
        [id, ws.workspaceId, sealed],
      );
      const { campaignId, done } = await importInto(id);
      expect(done).toMatchObject({ status: 'completed', read: 120, imported: 120, pages: 2 });
      expect(await contactsOf(campaignId)).toBe(120);
      expect(stub.seen(/^\/api\/v1\/persons$/).map((r) => r.query.get('start'))).toEqual(['0', '100']);
    });
  });
});
