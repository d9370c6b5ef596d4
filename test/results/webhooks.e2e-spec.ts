import { Clock, FixedClock } from '@outreach/platform';
import { DeliverResults } from '@outreach/results';
import { Webhook } from 'standardwebhooks';
import { extraOccurrences, reportDrill } from '../support/drill';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver';
import { expectError, finishLead, Loose, pushLead, runningApiCampaign } from './results-helpers';

const T0 = new Date('2026-11-21T10:00:00Z');
const HOUR = 3600 * 1000;

describe('result webhooks: endpoints, signed deliveries, retries', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  const clock = new FixedClock(T0);

  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true'; // the receivers listen on 127.0.0.1
    process.env.WEBHOOK_TIMEOUT_MS = '1000';
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    delete process.env.WEBHOOK_TIMEOUT_MS;
    await receiver.close();
    await t.close();
  });
  beforeEach(async () => {
    clock.set(T0);
    receiver.clear();
    receiver.respondWith(200);
    await receiver.up();
    await t.reset();
  });

  const deliver = () => t.get(DeliverResults).sweep();
  const api = (key: string) => ({
    post: (path: string, body: object = {}) => t.http.post(path).set(bearer(key)).send(body),
    patch: (path: string, body: object) => t.http.patch(path).set(bearer(key)).send(body),
    get: (path: string) => t.http.get(path).set(bearer(key)),
    del: (path: string) => t.http.delete(path).set(bearer(key)),
  });

  async function workspaceWithCampaign(): Promise<{ ws: Seeded; campaign: Loose }> {
    const ws = await t.seed({ features: ['api_results'] });
    return { ws, campaign: await runningApiCampaign(t, ws.key, ws.workspaceId) };
  }

  async function result(ws: Seeded, campaign: Loose, n: number): Promise<string> {
    const res = await pushLead(t, ws.key, campaign.id, { idempotencyKey: `k${n}`, phone: `+1415555${String(3000 + n)}` });
    if (res.status !== 201) throw new Error(`push: ${res.status} ${JSON.stringify(res.body)}`);
    return (await finishLead(t, ws.workspaceId, campaign.id, res.body.id)).resultId;
  }

  function verify(secret: string, w: ReceivedWebhook): unknown {
    return new Webhook(secret).verify(w.body, {
      'webhook-id': String(w.headers['webhook-id']),
      'webhook-timestamp': String(w.headers['webhook-timestamp']),
      'webhook-signature': String(w.headers['webhook-signature']),
    });
  }

  describe('endpoints', () => {
    it('create (secret shown once), list, get, patch, delete', async () => {
      const { ws } = await workspaceWithCampaign();
      const k = api(ws.key);
      const created = await k.post('/result-webhooks', { url: receiver.url(), description: 'CRM' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ id: expect.any(String), url: receiver.url(), description: 'CRM', enabled: true, disabledReason: null });
      expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

      const list = await k.get('/result-webhooks');
      expect(list.status).toBe(200);
      expect(list.body.webhooks).toHaveLength(1);
      expect(list.body.webhooks[0].secret).toBeUndefined();
      expect((await k.get(`/result-webhooks/${created.body.id}`)).body).toEqual(list.body.webhooks[0]);

      const patched = await k.patch(`/result-webhooks/${created.body.id}`, { enabled: false, description: null });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ enabled: false, description: null });
      expectError(await k.patch(`/result-webhooks/${created.body.id}`, {}), 400, 'no_fields_to_update');

      expect((await k.del(`/result-webhooks/${created.body.id}`)).status).toBe(204);
      expectError(await k.get(`/result-webhooks/${created.body.id}`), 404, 'not_found');
      expect((await k.get('/result-webhooks')).body.webhooks).toEqual([]);
    });

    it('400 invalid_body at url for a bad URL; 404 not_found for unknown, malformed or foreign ids', async () => {
      const { ws } = await workspaceWithCampaign();
      const other = await t.seed({ features: ['api_results'] });
      const k = api(ws.key);
      for (const url of ['ftp://example.com/x', 'not a url', 'http://user:pw@127.0.0.1/x', '/relative', 'https://' + 'a'.repeat(2100)]) {
        const res = await k.post('/result-webhooks', { url });
        expectError(res, 400, 'invalid_body');
        expect(res.body.issues[0].path).toBe('url');
      }
      expectError(await k.post('/result-webhooks', { url: receiver.url(), enabled: 'yes' }), 400, 'invalid_body');
      expectError(await k.post('/result-webhooks', { url: receiver.url(), secret: 'mine' }), 400, 'invalid_body');
      expect((await k.get('/result-webhooks')).body.webhooks).toEqual([]);
      const foreign = await api(other.key).post('/result-webhooks', { url: receiver.url() });
      for (const id of ['7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01', 'nope', foreign.body.id]) {
        expectError(await k.get(`/result-webhooks/${id}`), 404, 'not_found');
        expectError(await k.patch(`/result-webhooks/${id}`, { enabled: false }), 404, 'not_found');
        expectError(await k.del(`/result-webhooks/${id}`), 404, 'not_found');
        expectError(await k.post(`/result-webhooks/${id}/rotate-secret`), 404, 'not_found');
      }
      expect((await api(other.key).get(`/result-webhooks/${foreign.body.id}`)).body.enabled).toBe(true);
    });

    it('a workspace holds at most 20 endpoints (400 invalid_request)', async () => {
      const { ws } = await workspaceWithCampaign();
      for (let i = 0; i < 20; i++) expect((await api(ws.key).post('/result-webhooks', { url: receiver.url(`/h${i}`) })).status).toBe(201);
      expectError(await api(ws.key).post('/result-webhooks', { url: receiver.url('/h20') }), 400, 'invalid_request');
    });

    it('reads, edits and rotation never unseal the stored secrets (only a delivery does)', async () => {
      const { ws } = await workspaceWithCampaign();
      const k = api(ws.key);
      const created = await k.post('/result-webhooks', { url: receiver.url() });
      // A seal this service cannot open (as after a FUNCTION_SECRETS_KEY change without re-sealing).
      await t.dataSource.query(`UPDATE result_webhook_endpoints SET secret_sealed = $2 WHERE id = $1`, [
        created.body.id,
        Buffer.alloc(60, 7).toString('base64'),
      ]);
      expect((await k.get('/result-webhooks')).status).toBe(200);
      expect((await k.get(`/result-webhooks/${created.body.id}`)).status).toBe(200);
      const patched = await k.patch(`/result-webhooks/${created.body.id}`, { description: 'still readable' });
      expect({ status: patched.status, description: patched.body.description }).toEqual({ status: 200, description: 'still readable' });
      const rotated = await k.post(`/result-webhooks/${created.body.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      // The unreadable seal moved to the previous slot untouched; the new secret is current.
      const [row]: Array<{ previous: string }> = await t.dataSource.query(
        `SELECT previous_secret_sealed AS previous FROM result_webhook_endpoints WHERE id = $1`,
        [created.body.id],
      );
      expect(row.previous).toBe(Buffer.alloc(60, 7).toString('base64'));
    });

    it('a key with campaigns.view reads but cannot change (403 forbidden)', async () => {
      const { ws } = await workspaceWithCampaign();
      const viewer = await t.addKey(ws.workspaceId, { scopes: ['campaigns.view'] });
      expect((await api(viewer.key).get('/result-webhooks')).status).toBe(200);
      expectError(await api(viewer.key).post('/result-webhooks', { url: receiver.url() }), 403, 'forbidden');
    });
  });

  describe('delivery', () => {
    it('two workspaces, two receivers: each gets only its own results, signed, webhook-id = result id', async () => {
      const a = await workspaceWithCampaign();
      const b = await workspaceWithCampaign();
      const other = await WebhookReceiver.start();
      try {
        const hookA = await api(a.ws.key).post('/result-webhooks', { url: receiver.url('/a') });
        const hookB = await api(b.ws.key).post('/result-webhooks', { url: other.url('/b') });
        const resultsA = [await result(a.ws, a.campaign, 1), await result(a.ws, a.campaign, 2)];
        const resultsB = [await result(b.ws, b.campaign, 3)];
        await deliver();

        expect(receiver.received.map((w) => w.headers['webhook-id']).sort()).toEqual([...resultsA].sort());
        expect(other.received.map((w) => w.headers['webhook-id'])).toEqual(resultsB);
        for (const w of receiver.received) {
          const payload = verify(hookA.body.secret, w) as Loose;
          expect(payload.id).toBe(w.headers['webhook-id']);
          expect(payload).toEqual((await api(a.ws.key).get(`/v1/results/${payload.id}`)).body);
          expect(w.headers['content-type']).toBe('application/json');
          expect(() => verify(hookB.body.secret, w)).toThrow();
        }
        expect(verify(hookB.body.secret, other.received[0])).toMatchObject({ id: resultsB[0], data: { campaignId: b.campaign.id } });

        const deliveries = await api(a.ws.key).get('/result-webhooks/deliveries');
        expect(deliveries.body.items).toHaveLength(2);
        expect(deliveries.body.items.every((d: Loose) => d.status === 'SUCCEEDED' && d.attempts.length === 1 && d.attempts[0].statusCode === 200)).toBe(true);
        await deliver(); // nothing due: nothing sent twice
        expect(receiver.received).toHaveLength(2);
      } finally {
        await other.close();
      }
    });

    it('a receiver down for a while then up: every result delivered, nothing lost, history recorded', async () => {
      const { ws, campaign } = await workspaceWithCampaign();
      const hook = await api(ws.key).post('/result-webhooks', { url: receiver.url() });
      await receiver.down();
      const ids = [await result(ws, campaign, 1), await result(ws, campaign, 2), await result(ws, campaign, 3)];

      for (let round = 0; round < 4; round++) {
        const reports = await deliver();
        expect(reports.map((r) => r.outcome)).toEqual(['retry', 'retry', 'retry']);
        clock.advance(HOUR); // past every delay so far
      }
      // a new result while the receiver is still down
      ids.push(await result(ws, campaign, 4));
      let page = await api(ws.key).get('/result-webhooks/deliveries?status=PENDING');
      expect(page.body.items).toHaveLength(4);
      expect(page.body.items.find((d: Loose) => d.resultId === ids[0]).attempts.map((a: Loose) => a.statusCode)).toEqual([null, null, null, null]);

      await receiver.up();
      await deliver();
      expect(receiver.received.map((w) => w.headers['webhook-id']).sort()).toEqual([...ids].sort());
      for (const w of receiver.received) verify(hook.body.secret, w);
      page = await api(ws.key).get('/result-webhooks/deliveries?status=SUCCEEDED');
      expect(page.body.items).toHaveLength(4);
      const first = page.body.items.find((d: Loose) => d.resultId === ids[0]);
      expect(first.attempts.map((a: Loose) => a.statusCode)).toEqual([null, null, null, null, 200]);
      expect(first.attempts[0].error).toMatch(/ECONNREFUSED|connect/);

      // Later sweeps, days on, send nothing again: an acknowledged delivery is never repeated.
      for (let day = 0; day < 4; day++) {
        clock.advance(24 * HOUR);
        await deliver();
      }
      const acknowledged = receiver.received.filter((w) => w.answered < 300).map((w) => String(w.headers['webhook-id']));
      const delivered = new Set(acknowledged.filter((id) => ids.includes(id))).size;
      const count = reportDrill('webhook-receiver-down-then-up', {
        accepted: ids.length,
        delivered,
        lost: ids.length - delivered,
        duplicated: extraOccurrences(acknowledged),
      });
      expect(count).toEqual({ accepted: 4, delivered: 4, lost: 0, duplicated: 0 });
    });

    it('retries with back-off; Retry-After pushes the next try later; gives up after the schedule (~3 days)', async () => {
      const { ws, campaign } = await workspaceWithCampaign();
      await api(ws.key).post('/result-webhooks', { url: receiver.url() });
      receiver.respondWith(503, { 'Retry-After': '7200' });
      const id = await result(ws, campaign, 1);
      const [report] = await deliver();
      expect(report.outcome).toBe('retry');
      expect(report.nextAttemptAt!.getTime() - T0.getTime()).toBe(7200_000);
      clock.advance(3600_000);
      expect(await deliver()).toEqual([]); // not due yet: nothing sent
      expect(receiver.received).toHaveLength(1);

      receiver.respondWith(500);
      let attempts = 1;
      const started = clock.now().getTime();
      for (let guard = 0; guard < 40; guard++) {
        clock.advance(2 * HOUR);
        const reports = await deliver();
        attempts += reports.length;
        if (reports.some((r) => r.outcome === 'failed')) break;
        clock.advance(28 * HOUR);
        const late = await deliver();
        attempts += late.length;
        if (late.some((r) => r.outcome === 'failed')) break;
      }
      expect(attempts).toBe(13);
      const days = (clock.now().getTime() - started) / (24 * HOUR);
      expect(days).toBeGreaterThan(2);
      const [d] = (await api(ws.key).get(`/result-webhooks/deliveries?resultId=${id}`)).body.items;
      expect(d).toMatchObject({ status: 'FAILED', attemptCount: 13, nextAttemptAt: null, lastStatusCode: 500 });
      expect(d.attempts.map((a: Loose) => a.number)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));

      // redeliver: due now, a fresh schedule, history kept
      receiver.respondWith(200);
      const again = await api(ws.key).post(`/result-webhooks/deliveries/${d.id}/redeliver`);
      expect(again.status).toBe(202);
      expect(again.body).toMatchObject({ id: d.id, status: 'PENDING' });
      await deliver();
      const [after] = (await api(ws.key).get(`/result-webhooks/deliveries?resultId=${id}`)).body.items;
      expect(after).toMatchObject({ status: 'SUCCEEDED', attemptCount: 14 });
    });

    it('a receiver that answers 410 Gone disables the endpoint; later results are not sent to it', async () => {
      const { ws, campaign } = await workspaceWithCampaign();
      const hook = await api(ws.key).post('/result-webhooks', { url: receiver.url() });
      receiver.respondWith(410);
      await result(ws, campaign, 1);
      expect((await deliver()).map((r) => r.outcome)).toEqual(['failed']);
      const read = await api(ws.key).get(`/result-webhooks/${hook.body.id}`);
      expect(read.body).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('410') });

      receiver.respondWith(200);
      await result(ws, campaign, 2);
      await deliver();
      expect(receiver.received).toHaveLength(1);
      const gone = (await api(ws.key).get('/result-webhooks/deliveries')).body.items[0];
      expectError(await api(ws.key).post(`/result-webhooks/deliveries/${gone.id}/redeliver`), 400, 'invalid_request');
      // enabling it again clears the reason, and redelivery works
      expect((await api(ws.key).patch(`/result-webhooks/${hook.body.id}`, { enabled: true })).body).toMatchObject({ enabled: true, disabledReason: null });
      expect((await api(ws.key).post(`/result-webhooks/deliveries/${gone.id}/redeliver`)).status).toBe(202);
      await deliver();
      expect(receiver.received).toHaveLength(2);
    });

    it('a receiver slower than WEBHOOK_TIMEOUT_MS is a failed attempt, retried later', async () => {
      const { ws, campaign } = await workspaceWithCampaign();
      await api(ws.key).post('/result-webhooks', { url: receiver.url() });
      receiver.respondWith(200, undefined, 3000);
      await result(ws, campaign, 1);
      const [report] = await deliver();
      expect(report.outcome).toBe('retry');
      const [d] = (await api(ws.key).get('/result-webhooks/deliveries')).body.items;
      expect(d.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringContaining('timed out') });
    });

    it('rotation: the new secret shown once; both signatures for 24 h, then the new one only', async () => {
      const { ws, campaign } = await workspaceWithCampaign();
      const hook = await api(ws.key).post('/result-webhooks', { url: receiver.url() });
      const rotated = await api(ws.key).post(`/result-webhooks/${hook.body.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(hook.body.secret);
      expect(rotated.body.previousSecretExpiresAt).toBe(new Date(T0.getTime() + 24 * HOUR).toISOString());

      await result(ws, campaign, 1);
      await deliver();
      const during = receiver.received[0];
      expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
      verify(hook.body.secret, during);
      verify(rotated.body.secret, during);

      clock.advance(24 * HOUR);
      await result(ws, campaign, 2);
      await deliver();
      const after = receiver.received[1];
      expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
      verify(rotated.body.secret, after);
      expect(() => verify(hook.body.secret, after)).toThrow();
    });

    it('deliveries: cursor pages (newest first), filters, 404 on redeliver of unknown ids', async () => {
      const { ws, campaign } = await workspaceWithCampaign();
      const h1 = await api(ws.key).post('/result-webhooks', { url: receiver.url('/1') });
      const h2 = await api(ws.key).post('/result-webhooks', { url: receiver.url('/2') });
      for (let n = 0; n < 3; n++) await result(ws, campaign, n);
      await deliver();
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: { items: Array<{ id: string }>; nextCursor: string | null } } = await api(ws.key).get(
          `/result-webhooks/deliveries?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(res.status).toBe(200);
        seen.push(...res.body.items.map((d) => d.id));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(seen).toHaveLength(6);
      expect(new Set(seen).size).toBe(6);
      expect((await api(ws.key).get(`/result-webhooks/deliveries?endpointId=${h2.body.id}`)).body.items).toHaveLength(3);
      expect((await api(ws.key).get(`/result-webhooks/deliveries?endpointId=${h1.body.id}&status=FAILED`)).body.items).toHaveLength(0);
      expectError(await api(ws.key).get('/result-webhooks/deliveries?status=DONE'), 400, 'invalid_query');
      expectError(await api(ws.key).get('/result-webhooks/deliveries?cursor=zz!'), 400, 'invalid_cursor');
      expectError(await api(ws.key).post('/result-webhooks/deliveries/7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01/redeliver'), 404, 'not_found');
      const other = await t.seed({ features: ['api_results'] });
      expect((await api(other.key).get('/result-webhooks/deliveries')).body.items).toEqual([]);
      expectError(await api(other.key).post(`/result-webhooks/deliveries/${seen[0]}/redeliver`), 404, 'not_found');
    });

    it('deleting an endpoint cancels its pending deliveries and keeps the history', async () => {
      const { ws, campaign } = await workspaceWithCampaign();
      const hook = await api(ws.key).post('/result-webhooks', { url: receiver.url() });
      await receiver.down();
      await result(ws, campaign, 1);
      await deliver();
      expect((await api(ws.key).del(`/result-webhooks/${hook.body.id}`)).status).toBe(204);
      await receiver.up();
      clock.advance(HOUR);
      expect(await deliver()).toEqual([]);
      const [d] = (await api(ws.key).get('/result-webhooks/deliveries')).body.items;
      expect(d).toMatchObject({ status: 'CANCELED', attemptCount: 1 });
      expect(receiver.received).toHaveLength(0);
    });
  });
});
