import { randomUUID } from 'node:crypto';
import { AppConfig } from '@outreach/core';
import { FixedClock, jobsRollback, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import { encodeCursor } from '../domain/page-cursor';
import { MAX_WEBHOOK_ENDPOINTS, SECRET_OVERLAP_MS } from '../domain/webhook-endpoint';
import { InMemoryDeliveryStore, InMemoryResultStore, InMemoryWebhookEndpointStore, StaticHostResolver } from '../testing';
import { ResultWebhooks } from './result-webhooks.service';

const NOW = new Date('2026-11-21T10:00:00Z');
const WS = 'ws-1';
const URL_OK = 'https://hooks.example.com/results';

function setup(allowPrivate = false) {
  const clock = new FixedClock(NOW);
  const endpoints = new InMemoryWebhookEndpointStore();
  const results = new InMemoryResultStore();
  const deliveries = new InMemoryDeliveryStore(endpoints, results);
  const resolver = new StaticHostResolver();
  const outbox = new RecordingOutbox();
  const uow = new RollbackUnitOfWork([jobsRollback(outbox)]);
  const config = { webhookAllowPrivateTargets: allowPrivate } as AppConfig;
  const webhooks = new ResultWebhooks(endpoints, deliveries, resolver, outbox, uow, clock, config);
  resolver.hosts.set('hooks.example.com', ['93.184.216.34']);
  resolver.hosts.set('internal.example.com', ['93.184.216.35', '10.1.2.3']);
  return { clock, endpoints, deliveries, resolver, outbox, uow, webhooks };
}

describe('ResultWebhooks (use case, ports faked)', () => {
  describe('create', () => {
    it('stores an enabled endpoint and shows its whsec_ secret once', async () => {
      const s = setup();
      const created = await s.webhooks.create(WS, { url: URL_OK, description: 'CRM' });
      expect(created).toMatchObject({ url: URL_OK, description: 'CRM', enabled: true, disabledReason: null, createdAt: NOW.toISOString() });
      expect(created.secret).toMatch(/^whsec_/);
      expect(s.endpoints.stored(created.id)).toMatchObject({ workspaceId: WS, url: URL_OK, secret: created.secret });
      expect(s.resolver.asked).toEqual(['hooks.example.com']);
      const listed = await s.webhooks.list(WS);
      expect(listed).toHaveLength(1);
      expect(listed[0]).not.toHaveProperty('secret');
    });

    it.each([
      ['a private IP literal', 'http://10.0.0.1/hook'],
      ['loopback', 'http://127.0.0.1:8080/hook'],
      ['a host that resolves inside', 'https://internal.example.com/hook'],
      ['a host that does not resolve', 'https://nowhere.example.com/hook'],
      ['credentials in the URL', 'https://user:pw@hooks.example.com/hook'],
      ['another scheme', 'ftp://hooks.example.com/hook'],
      ['a relative URL', '/hook'],
    ])('answers invalid_body at url for %s', async (_what, url) => {
      const s = setup();
      await expect(s.webhooks.create(WS, { url })).rejects.toMatchObject({ code: 'invalid_body', options: { issues: [{ path: 'url' }] } });
      expect(s.endpoints.rows.size).toBe(0);
    });

    it('accepts private targets when the operator allows them, without asking DNS', async () => {
      const s = setup(true);
      await expect(s.webhooks.create(WS, { url: 'http://10.0.0.1/hook' })).resolves.toMatchObject({ url: 'http://10.0.0.1/hook' });
      await expect(s.webhooks.create(WS, { url: 'https://nowhere.example.com/hook' })).resolves.toBeDefined();
      expect(s.resolver.asked).toEqual([]);
    });

    it(`answers invalid_request beyond ${MAX_WEBHOOK_ENDPOINTS} endpoints; deleted ones do not count`, async () => {
      const s = setup();
      const ids: string[] = [];
      for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i += 1) ids.push((await s.webhooks.create(WS, { url: `${URL_OK}/${i}` })).id);
      await expect(s.webhooks.create(WS, { url: URL_OK })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(s.webhooks.create('ws-2', { url: URL_OK })).resolves.toBeDefined();
      await s.webhooks.delete(WS, ids[0]);
      await expect(s.webhooks.create(WS, { url: URL_OK })).resolves.toBeDefined();
    });
  });

  describe('get, update, delete', () => {
    it('answers not_found for a malformed, unknown or another workspace’s endpoint', async () => {
      const s = setup();
      const foreign = await s.webhooks.create('ws-2', { url: URL_OK });
      for (const id of ['not-a-uuid', randomUUID(), foreign.id]) {
        await expect(s.webhooks.get(WS, id)).rejects.toMatchObject({ code: 'not_found' });
        await expect(s.webhooks.update(WS, id, { enabled: false })).rejects.toMatchObject({ code: 'not_found' });
        await expect(s.webhooks.delete(WS, id)).rejects.toMatchObject({ code: 'not_found' });
        await expect(s.webhooks.rotateSecret(WS, id)).rejects.toMatchObject({ code: 'not_found' });
      }
      expect(s.endpoints.stored(foreign.id)).toMatchObject({ enabled: true, deletedAt: null, secret: foreign.secret });
    });

    it('answers no_fields_to_update for an empty PATCH', async () => {
      const s = setup();
      const { id } = await s.webhooks.create(WS, { url: URL_OK });
      await expect(s.webhooks.update(WS, id, {})).rejects.toMatchObject({ code: 'no_fields_to_update' });
    });

    it('updates url (checked again), description and enabled; re-enabling clears the reason it was switched off', async () => {
      const s = setup();
      const { id } = await s.webhooks.create(WS, { url: URL_OK, description: 'x' });
      await s.endpoints.disable(id, 'the receiver answered 410 Gone', NOW);
      s.clock.advance(1000);

      await expect(s.webhooks.update(WS, id, { url: 'https://internal.example.com/x' })).rejects.toMatchObject({ code: 'invalid_body' });
      const view = await s.webhooks.update(WS, id, { url: `${URL_OK}/v2`, description: null, enabled: true });
      expect(view).toMatchObject({ url: `${URL_OK}/v2`, description: null, enabled: true, disabledReason: null, updatedAt: s.clock.now().toISOString() });
      expect(s.endpoints.stored(id)).toMatchObject({ url: `${URL_OK}/v2`, enabled: true, disabledReason: null });
    });

    it('delete hides the endpoint and cancels its pending deliveries, keeping finished ones', async () => {
      const s = setup();
      const { id } = await s.webhooks.create(WS, { url: URL_OK });
      const pending = s.deliveries.seed({ workspaceId: WS, endpointId: id, resultId: 'r-1', due: NOW });
      const done = s.deliveries.seed({ workspaceId: WS, endpointId: id, resultId: 'r-2', due: NOW });
      await s.deliveries.recordAttempt(done, { number: 1, at: NOW, statusCode: 200, error: null, durationMs: 3 }, { status: 'SUCCEEDED', nextAttemptAt: null });

      await s.webhooks.delete(WS, id);
      await expect(s.webhooks.get(WS, id)).rejects.toMatchObject({ code: 'not_found' });
      expect(s.deliveries.stored(pending)).toMatchObject({ status: 'CANCELED', lastError: 'endpoint deleted' });
      expect(s.deliveries.stored(done)?.status).toBe('SUCCEEDED');
    });
  });

  it('rotateSecret shows a new secret; the previous one keeps signing for 24 h', async () => {
    const s = setup();
    const created = await s.webhooks.create(WS, { url: URL_OK });
    s.clock.advance(60_000);
    const rotated = await s.webhooks.rotateSecret(WS, created.id);
    const overlapEnd = new Date(s.clock.now().getTime() + SECRET_OVERLAP_MS);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated).toMatchObject({ secretRotatedAt: s.clock.now().toISOString(), previousSecretExpiresAt: overlapEnd.toISOString() });
    expect(s.endpoints.secretsAt(created.id, s.clock.now())).toEqual([rotated.secret, created.secret]);
    expect(s.endpoints.secretsAt(created.id, overlapEnd)).toEqual([rotated.secret]);
  });

  describe('deliveries and redeliver', () => {
    it('pages deliveries newest first, filtered, with a cursor', async () => {
      const s = setup();
      const { id } = await s.webhooks.create(WS, { url: URL_OK });
      const ids = [1, 2, 3].map((n) => s.deliveries.seed({ workspaceId: WS, endpointId: id, resultId: `r-${n}`, due: NOW }));
      s.deliveries.seed({ workspaceId: 'ws-2', endpointId: id, resultId: 'r-x', due: NOW });
      const first = await s.webhooks.deliveriesPage(WS, { limit: 2 });
      expect(first.items.map((d) => d.id)).toEqual([ids[2], ids[1]]);
      const second = await s.webhooks.deliveriesPage(WS, { limit: 2, cursor: first.nextCursor! });
      expect(second).toMatchObject({ items: [{ id: ids[0] }], nextCursor: null });
      await expect(s.webhooks.deliveriesPage(WS, { limit: 10, resultId: 'r-2' })).resolves.toMatchObject({ items: [{ id: ids[1] }] });
      await expect(s.webhooks.deliveriesPage(WS, { limit: 10, status: 'FAILED' })).resolves.toEqual({ items: [], nextCursor: null });
      await expect(s.webhooks.deliveriesPage(WS, { limit: 10, cursor: encodeCursor('results', '1') })).rejects.toMatchObject({
        code: 'invalid_cursor',
      });
    });

    it('redeliver puts a delivery back to PENDING, due now, and writes a deliver job', async () => {
      const s = setup();
      const { id } = await s.webhooks.create(WS, { url: URL_OK });
      const delivery = s.deliveries.seed({ workspaceId: WS, endpointId: id, resultId: 'r-1', due: NOW });
      await s.deliveries.recordAttempt(delivery, { number: 1, at: NOW, statusCode: 500, error: 'HTTP 500', durationMs: 3 }, { status: 'FAILED', nextAttemptAt: null });
      s.clock.advance(3600_000);

      const view = await s.webhooks.redeliver(WS, delivery);
      expect(view).toMatchObject({ id: delivery, status: 'PENDING', nextAttemptAt: s.clock.now().toISOString(), attempts: [{ number: 1, statusCode: 500 }] });
      expect(s.deliveries.stored(delivery)?.retryBase).toBe(1);
      expect(s.outbox.named('results', 'deliver')).toEqual([{ queue: 'results', name: 'deliver', payload: { deliveryId: delivery } }]);
    });

    it('redeliver answers not_found for an unknown or foreign delivery', async () => {
      const s = setup();
      const { id } = await s.webhooks.create('ws-2', { url: URL_OK });
      const foreign = s.deliveries.seed({ workspaceId: 'ws-2', endpointId: id, resultId: 'r-1', due: NOW });
      await expect(s.webhooks.redeliver(WS, foreign)).rejects.toMatchObject({ code: 'not_found' });
      await expect(s.webhooks.redeliver(WS, randomUUID())).rejects.toMatchObject({ code: 'not_found' });
      expect(s.outbox.jobs).toHaveLength(0);
    });

    it('redeliver answers invalid_request when the endpoint was deleted or is disabled', async () => {
      const s = setup();
      const deleted = await s.webhooks.create(WS, { url: URL_OK });
      const disabled = await s.webhooks.create(WS, { url: `${URL_OK}/2` });
      const d1 = s.deliveries.seed({ workspaceId: WS, endpointId: deleted.id, resultId: 'r-1', due: NOW });
      const d2 = s.deliveries.seed({ workspaceId: WS, endpointId: disabled.id, resultId: 'r-1', due: NOW });
      await s.webhooks.delete(WS, deleted.id);
      await s.webhooks.update(WS, disabled.id, { enabled: false });
      await expect(s.webhooks.redeliver(WS, d1)).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(s.webhooks.redeliver(WS, d2)).rejects.toMatchObject({ code: 'invalid_request' });
      expect(s.deliveries.stored(d2)?.status).toBe('PENDING');
      expect(s.outbox.jobs).toHaveLength(0);
    });
  });
});
