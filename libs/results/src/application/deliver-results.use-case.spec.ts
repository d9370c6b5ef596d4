import { AppConfig } from '@outreach/core';
import { inMemoryTimeline } from '../../../campaigns/src/testing';
import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { MAX_DELIVERY_ATTEMPTS, RETRY_DELAYS_MS } from '../domain/delivery-schedule';
import { newWebhookSecret, signWebhook } from '../domain/webhook-signature';
import { aLeadResult, InMemoryDeliveryStore, InMemoryResultStore, InMemoryWebhookEndpointStore, ScriptedWebhookSender } from '../testing';
import { DeliverResults } from './deliver-results.use-case';

const NOW = new Date('2026-11-21T10:00:00Z');
const WS = 'ws-1';
const ENDPOINT = '0e7e3a52-62a4-4f0e-9a7e-8c1c0d6f0001';
const DAY_MS = 24 * 3600_000;

function setup() {
  const clock = new FixedClock(NOW);
  const endpoints = new InMemoryWebhookEndpointStore();
  const results = new InMemoryResultStore();
  const deliveries = new InMemoryDeliveryStore(endpoints, results);
  const sender = new ScriptedWebhookSender();
  const config = { webhookTimeoutMs: 15_000, webhookAllowPrivateTargets: false } as AppConfig;
  const deliver = new DeliverResults(deliveries, endpoints, sender, clock, config, new RollbackUnitOfWork(), inMemoryTimeline({ clock }));

  const secret = newWebhookSecret();
  void endpoints.insert(
    {
      id: ENDPOINT,
      workspaceId: WS,
      url: 'https://hooks.example.com/results',
      description: null,
      enabled: true,
      disabledReason: null,
      previousSecretExpiresAt: null,
      secretRotatedAt: null,
      createdAt: NOW,
      updatedAt: NOW,
    },
    secret,
  );
  const envelope = aLeadResult({ campaignId: 'c-1', createdAt: NOW });
  results.seed({ id: envelope.id, workspaceId: WS, campaignId: 'c-1', leadId: envelope.data.leadId, envelope, createdAt: NOW, expiresAt: new Date(NOW.getTime() + 30 * DAY_MS) });
  const deliveryId = deliveries.seed({ workspaceId: WS, endpointId: ENDPOINT, resultId: envelope.id, due: NOW });
  return { clock, endpoints, results, deliveries, sender, deliver, secret, envelope, deliveryId };
}

describe('DeliverResults (use case, ports faked)', () => {
  it('a 2xx answer marks the delivery SUCCEEDED; the request is signed the Standard Webhooks way', async () => {
    const s = setup();
    s.sender.answer(204);
    await expect(s.deliver.attempt(s.deliveryId)).resolves.toEqual({ deliveryId: s.deliveryId, outcome: 'delivered', nextAttemptAt: null });

    expect(s.deliveries.stored(s.deliveryId)).toMatchObject({
      status: 'SUCCEEDED',
      attemptCount: 1,
      nextAttemptAt: null,
      lastStatusCode: 204,
      attempts: [{ number: 1, attemptedAt: NOW.toISOString(), statusCode: 204, error: null }],
      leasedUntil: null,
    });
    const [request] = s.sender.requests;
    expect(request).toMatchObject({ url: 'https://hooks.example.com/results', timeoutMs: 15_000, allowPrivateTargets: false });
    expect(JSON.parse(request.body)).toEqual(s.envelope);
    expect(request.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': s.envelope.id });
    const timestamp = Number(request.headers['webhook-timestamp']);
    expect(request.headers['webhook-signature']).toBe(signWebhook(s.secret, s.envelope.id, timestamp, request.body));
  });

  it('signs with the previous secret too while a rotation overlaps', async () => {
    const s = setup();
    const endpoint = (await s.endpoints.find(WS, ENDPOINT))!;
    const next = newWebhookSecret();
    await s.endpoints.rotateSecret({ ...endpoint, previousSecretExpiresAt: new Date(NOW.getTime() + DAY_MS) }, next);
    s.sender.answer(200);
    await s.deliver.attempt(s.deliveryId);
    const [request] = s.sender.requests;
    const ts = Number(request.headers['webhook-timestamp']);
    expect(request.headers['webhook-signature']).toBe(`${signWebhook(next, s.envelope.id, ts, request.body)} ${signWebhook(s.secret, s.envelope.id, ts, request.body)}`);
  });

  it('a 5xx or no answer schedules the next try after the first back-off step (±20 %)', async () => {
    const s = setup();
    s.sender.answer({ statusCode: null, error: 'connect ECONNREFUSED' });
    const report = await s.deliver.attempt(s.deliveryId);
    expect(report.outcome).toBe('retry');
    const delay = report.nextAttemptAt!.getTime() - NOW.getTime();
    expect(delay).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0] * 0.8);
    expect(delay).toBeLessThanOrEqual(RETRY_DELAYS_MS[0] * 1.2);
    expect(s.deliveries.stored(s.deliveryId)).toMatchObject({
      status: 'PENDING',
      attemptCount: 1,
      nextAttemptAt: report.nextAttemptAt!.toISOString(),
      lastError: 'connect ECONNREFUSED',
      lastStatusCode: null,
      leasedUntil: null,
    });
  });

  it('honours a later Retry-After', async () => {
    const s = setup();
    s.sender.answer({ statusCode: 503, retryAfter: '120', error: 'HTTP 503' });
    const report = await s.deliver.attempt(s.deliveryId);
    expect(report).toMatchObject({ outcome: 'retry', nextAttemptAt: new Date(NOW.getTime() + 120_000) });
  });

  it('follows the back-off schedule and fails for good once it runs out', async () => {
    const s = setup();
    s.sender.answer(500);
    for (let attempt = 1; attempt < MAX_DELIVERY_ATTEMPTS; attempt += 1) {
      const before = s.clock.now().getTime();
      const report = await s.deliver.attempt(s.deliveryId);
      expect(report.outcome).toBe('retry');
      const delay = report.nextAttemptAt!.getTime() - before;
      expect(delay).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[attempt - 1] * 0.8);
      expect(delay).toBeLessThanOrEqual(RETRY_DELAYS_MS[attempt - 1] * 1.2);
      // Not due before its time.
      await expect(s.deliver.attempt(s.deliveryId)).resolves.toMatchObject({ outcome: 'skipped' });
      s.clock.set(report.nextAttemptAt!);
    }
    await expect(s.deliver.attempt(s.deliveryId)).resolves.toMatchObject({ outcome: 'failed', nextAttemptAt: null });
    expect(s.deliveries.stored(s.deliveryId)).toMatchObject({ status: 'FAILED', attemptCount: MAX_DELIVERY_ATTEMPTS });
    expect(s.sender.requests).toHaveLength(MAX_DELIVERY_ATTEMPTS);
  });

  it('a redelivered delivery starts the back-off schedule again', async () => {
    const s = setup();
    s.sender.answer(500);
    s.deliveries.rows.get(s.deliveryId)!.view.attemptCount = MAX_DELIVERY_ATTEMPTS;
    await s.deliveries.requeue(s.deliveryId, NOW);
    const report = await s.deliver.attempt(s.deliveryId);
    expect(report.outcome).toBe('retry');
    expect(report.nextAttemptAt!.getTime() - NOW.getTime()).toBeLessThanOrEqual(RETRY_DELAYS_MS[0] * 1.2);
    expect(s.deliveries.stored(s.deliveryId)?.attemptCount).toBe(MAX_DELIVERY_ATTEMPTS + 1);
  });

  it('410 Gone fails the delivery and switches the endpoint off; its next deliveries are canceled unsent', async () => {
    const s = setup();
    const second = s.deliveries.seed({ workspaceId: WS, endpointId: ENDPOINT, resultId: s.envelope.id, due: NOW });
    s.sender.answer(410);
    await expect(s.deliver.attempt(s.deliveryId)).resolves.toMatchObject({ outcome: 'failed' });
    expect(s.deliveries.stored(s.deliveryId)).toMatchObject({ status: 'FAILED', lastStatusCode: 410 });
    expect(s.endpoints.stored(ENDPOINT)).toMatchObject({ enabled: false, disabledReason: 'the receiver answered 410 Gone', updatedAt: NOW });

    await expect(s.deliver.attempt(second)).resolves.toMatchObject({ outcome: 'canceled' });
    expect(s.deliveries.stored(second)?.status).toBe('CANCELED');
    expect(s.sender.requests).toHaveLength(1);
  });

  it('cancels without sending when the endpoint was deleted or the result expired', async () => {
    const s = setup();
    await s.endpoints.delete(WS, ENDPOINT, NOW);
    await expect(s.deliver.attempt(s.deliveryId)).resolves.toMatchObject({ outcome: 'canceled' });

    const t = setup();
    t.results.rows[0].expiresAt = NOW;
    await expect(t.deliver.attempt(t.deliveryId)).resolves.toMatchObject({ outcome: 'canceled' });
    expect(t.deliveries.stored(t.deliveryId)?.status).toBe('CANCELED');
    expect([...s.sender.requests, ...t.sender.requests]).toHaveLength(0);
  });

  it('skips a delivery that is leased, finished or unknown', async () => {
    const s = setup();
    s.sender.answer(200);
    await s.deliveries.claim(s.deliveryId, NOW, new Date(NOW.getTime() + 60_000));
    await expect(s.deliver.attempt(s.deliveryId)).resolves.toMatchObject({ outcome: 'skipped' });
    s.clock.advance(60_000); // the lease ran out: another sender may take it
    await expect(s.deliver.attempt(s.deliveryId)).resolves.toMatchObject({ outcome: 'delivered' });
    await expect(s.deliver.attempt(s.deliveryId)).resolves.toMatchObject({ outcome: 'skipped' });
    await expect(s.deliver.attempt('unknown')).resolves.toMatchObject({ outcome: 'skipped' });
    expect(s.sender.requests).toHaveLength(1);
  });

  it('sweep tries every due delivery and leaves the others', async () => {
    const s = setup();
    const later = s.deliveries.seed({ workspaceId: WS, endpointId: ENDPOINT, resultId: s.envelope.id, due: new Date(NOW.getTime() + 60_000) });
    const also = s.deliveries.seed({ workspaceId: WS, endpointId: ENDPOINT, resultId: s.envelope.id, due: NOW });
    s.sender.answer(200);
    const reports = await s.deliver.sweep();
    expect(reports.map((r) => [r.deliveryId, r.outcome]).sort()).toEqual([[s.deliveryId, 'delivered'], [also, 'delivered']].sort());
    expect(s.deliveries.stored(later)?.status).toBe('PENDING');
  });
});
