import { randomUUID } from 'node:crypto';
import { AppError } from '@outreach/core';
import { CloudApiWhatsappProvider, hubSignature, OptOuts, SendMessage } from '@outreach/messaging';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { credit, expectError } from '../campaigns/campaign-helpers';
import { FIXTURE_OUR_ID, FIXTURE_WAMID, GraphStub, graphFixture } from '../support/stubs/whatsapp-graph-stub';
import { waitFor } from '../support/tcp-proxy';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { CREDENTIALS, createTemplate } from './messaging-helpers';

/*
 * Issue 12 item 7 (WhatsApp half): the Cloud API (Graph) adapter against a local stub server that
 * answers with recorded fixtures (test/fixtures/whatsapp/), then the same adapter picked by a
 * sender's credentials inside the real app and worker. Decisions.md 30.18.
 */
const credentials = { ...CREDENTIALS, provider: 'CLOUD_API' as const, appSecret: 'own-app-secret', verifyToken: 'own-verify-token' };

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('WhatsApp Cloud API adapter against a local Graph stub', () => {
  let stub: GraphStub;
  let adapter: CloudApiWhatsappProvider;
  const message = {
    messageId: randomUUID(),
    senderId: randomUUID(),
    from: '+14155550124',
    to: '+14155550127',
    templateName: 'order_update',
    language: 'en_US',
    parameters: ['Ada', 'A-17'],
    credentials,
  };

  beforeAll(async () => {
    stub = await GraphStub.start();
    adapter = new CloudApiWhatsappProvider({ baseUrl: stub.baseUrl, timeoutMs: 2_000, retryDelayMs: 10 });
  });
  afterAll(() => stub?.close());
  beforeEach(() => stub.reset());

  it('sends the template as Graph expects it (path, bearer token, body) and answers the wamid', async () => {
    expect(await adapter.send(message)).toEqual({ providerMessageId: stub.acceptedIds[0] });
    expect(stub.requests).toHaveLength(1);
    const [req] = stub.requests;
    expect({ method: req.method, path: req.path, auth: req.headers.authorization, type: req.headers['content-type'] }).toEqual({
      method: 'POST',
      path: `/v21.0/${CREDENTIALS.phoneNumberId}/messages`,
      auth: `Bearer ${CREDENTIALS.accessToken}`,
      type: 'application/json',
    });
    // Our message id rides along as biz_opaque_callback_data (decisions.md 33.16).
    expect(req.body).toEqual(graphFixture('send-template.request', { [FIXTURE_OUR_ID]: message.messageId }));
  });

  it('a 5xx is retried; still 5xx after the retries → 502 provider_error with upstreamStatus', async () => {
    const fiveHundred = { status: 500, body: graphFixture('error-500-unknown.response') };
    stub.answerNext(fiveHundred, { status: 503, body: {} });
    expect(await adapter.send(message)).toEqual({ providerMessageId: stub.acceptedIds[0] });
    expect(stub.requests).toHaveLength(3);

    stub.reset();
    stub.answerNext(fiveHundred, fiveHundred, fiveHundred);
    const error = await rejection(adapter.send(message));
    expect({ status: error.status, code: error.code, upstreamStatus: error.options.upstreamStatus }).toEqual({ status: 502, code: 'provider_error', upstreamStatus: 500 });
    expect(stub.requests).toHaveLength(3);
  });

  it('4xx answers are mapped at once (no retry): undeliverable, expired token, rate limit (retryable)', async () => {
    const cases: Array<[string, number, number, boolean]> = [
      ['error-131026-undeliverable.response', 400, 131026, false],
      ['error-190-token-expired.response', 401, 190, false],
      ['error-130429-rate-limit.response', 400, 130429, true],
    ];
    for (const [fixture, status, graphCode, retryable] of cases) {
      stub.reset();
      stub.answerNext({ status, body: graphFixture(fixture) });
      const error = await rejection(adapter.send(message));
      expect({ status: error.status, code: error.code, upstreamStatus: error.options.upstreamStatus, detail: error.options.detail }).toEqual({
        status: 502,
        code: 'provider_error',
        upstreamStatus: status,
        detail: { graphCode, retryable },
      });
      expect(error.message).toContain(String(graphCode));
      expect(stub.requests).toHaveLength(1);
    }
  });

  it('an unreachable API → 502 provider_error without upstreamStatus, after the retries', async () => {
    const closed = await GraphStub.start();
    const url = closed.baseUrl;
    await closed.close();
    const offline = new CloudApiWhatsappProvider({ baseUrl: url, timeoutMs: 1_000, retries: 1, retryDelayMs: 10 });
    const error = await rejection(offline.send(message));
    expect({ status: error.status, code: error.code, upstreamStatus: error.options.upstreamStatus }).toEqual({ status: 502, code: 'provider_error', upstreamStatus: undefined });
  });

  it('verifies a sender by reading its phone number; a refused token is the verdict, not an error', async () => {
    expect(await adapter.verifySender({ senderId: 's', e164: '+14155550124', credentials })).toEqual({ ok: true, verifiedName: 'Acme Inc', qualityRating: 'GREEN' });
    expect(stub.requests[0]).toMatchObject({ method: 'GET', path: `/v21.0/${CREDENTIALS.phoneNumberId}?fields=verified_name,quality_rating,display_phone_number` });
    stub.answerNext({ status: 401, body: graphFixture('error-190-token-expired.response') });
    expect(await adapter.verifySender({ senderId: 's', e164: '+14155550124', credentials })).toEqual({ ok: false, reason: expect.stringContaining('190') });
  });
});

describe('a sender whose credentials pick the Cloud API, in the real app and worker', () => {
  let stub: GraphStub;
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;
  let senderId: string;
  let templateId: string;
  const saved = process.env.WHATSAPP_GRAPH_BASE_URL;

  beforeAll(async () => {
    stub = await GraphStub.start();
    process.env.WHATSAPP_GRAPH_BASE_URL = stub.baseUrl;
    t = await TestApp.create();
    worker = await WorkerApp.create({ root: WorkerModule });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await stub?.close();
    if (saved === undefined) delete process.env.WHATSAPP_GRAPH_BASE_URL;
    else process.env.WHATSAPP_GRAPH_BASE_URL = saved;
  });
  beforeEach(async () => {
    await t.reset();
    stub.reset();
    ws = await t.seed({ features: ['whatsapp'] });
    await credit(t, ws.workspaceId);
    // A number ending in 0 would be refused by the sandbox: the Cloud API (the stub) verifies it instead.
    const sender = await t.http.post('/whatsapp/senders').set(bearer(ws.key)).send({ phoneNumber: '+14155550120', credentials });
    expect(sender.status).toBe(201);
    senderId = sender.body.id;
    const template = await createTemplate(t, ws.key, {
      name: 'order_update',
      body: 'Hi {{1}}, your order {{2}} is on its way.',
      footer: null,
      bindings: [
        { placeholder: 1, source: 'CONTACT_FIELD', value: 'name' },
        { placeholder: 2, source: 'CAMPAIGN_VARIABLE', value: 'order_ref' },
      ],
    });
    templateId = template.id as string;
    await t.http.post(`/whatsapp/templates/${templateId}/submit`).set(bearer(ws.key));
    await waitFor('verified by the Graph stub, template approved', async () => {
      const [s, tp] = await Promise.all([t.http.get(`/whatsapp/senders/${senderId}`).set(bearer(ws.key)), t.http.get(`/whatsapp/templates/${templateId}`).set(bearer(ws.key))]);
      return s.body.status === 'CONNECTED' && tp.body.status === 'APPROVED';
    }, 20_000);
  });

  const send = (to = '+14155550127') =>
    t.get(SendMessage).send({
      workspaceId: ws.workspaceId,
      channel: 'WHATSAPP',
      senderId,
      templateId,
      to,
      variables: { contact: { name: 'Ada' }, campaign: { order_ref: 'A-17' } },
      idempotencyKey: `attempt-${randomUUID()}`,
    });
  const row = async (id: string) => (await t.dataSource.query(`SELECT * FROM messages WHERE id = $1`, [id]))[0];
  const signed = (body: unknown, secret: string) => {
    const raw = JSON.stringify(body);
    return t.http.post(`/webhooks/whatsapp/${senderId}`).set('Content-Type', 'application/json').set('X-Hub-Signature-256', hubSignature(secret, raw)).send(raw);
  };

  it('connects through Graph, sends through Graph once, and applies the recorded webhooks signed with the sender’s own app secret', async () => {
    expect((await t.http.get(`/whatsapp/senders/${senderId}`).set(bearer(ws.key))).body).toMatchObject({ verifiedName: 'Acme Inc', qualityRating: 'GREEN' });

    const sent = await send();
    expect(sent.outcome).toBe('sent');
    const posts = stub.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toEqual(graphFixture('send-template.request', { [FIXTURE_OUR_ID]: sent.message.id }));
    const wamid = stub.acceptedIds[0];
    expect(await row(sent.message.id)).toMatchObject({ status: 'SENT', provider: 'cloud_api', provider_message_id: wamid });
    const ids = { [FIXTURE_WAMID]: wamid, [FIXTURE_OUR_ID]: sent.message.id };

    // The platform's secret is not this sender's: 401, nothing stored.
    expectError(await signed(graphFixture('webhook-statuses', ids), t.config.whatsappAppSecret), 401, 'unauthorized');
    expect((await signed(graphFixture('webhook-statuses', ids), credentials.appSecret)).body).toEqual({ received: 2 });
    await waitFor('READ', async () => (await row(sent.message.id)).status === 'READ', 10_000);
    expect((await row(sent.message.id)).read_at.toISOString()).toBe('2025-11-25T10:01:00.000Z');

    // The recorded reply "UNSUBSCRIBE" is stored against our message and opts the contact out.
    const reply = graphFixture('webhook-inbound-reply', { ...ids, 'wamid.HBgLMTQxNTU1NTAxMjcVAgASGBQzQUI0RjRBNUQ2QTVBNDg4N0E4RgA=': `wamid.in.${randomUUID()}` });
    expect((await signed(reply, credentials.appSecret)).body).toEqual({ received: 1 });
    await waitFor('the opt-out', () => t.get(OptOuts).isOptedOut(ws.workspaceId, 'WHATSAPP', '+14155550127'), 10_000);
    const [inbound] = await t.dataSource.query(`SELECT * FROM messages WHERE direction = 'INBOUND'`);
    expect(inbound).toMatchObject({ in_reply_to_id: sent.message.id, body: 'UNSUBSCRIBE', provider: 'cloud_api' });

    // The handshake answers the sender's own verify token, not the platform's.
    const hub = (token: string) => t.http.get(`/webhooks/whatsapp/${senderId}`).query({ 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': '42' });
    expect((await hub(credentials.verifyToken)).text).toBe('42');
    expectError(await hub(t.config.whatsappWebhookVerifyToken), 401, 'unauthorized');
  });

  it('a 4xx from Graph fails the message unbilled; a 5xx after the retries leaves it QUEUED for the same key', async () => {
    stub.answerNext({ status: 400, body: graphFixture('error-131026-undeliverable.response') });
    const failed = await send('+14155550128');
    expect(failed.outcome).toBe('failed');
    expect(await row(failed.message.id)).toMatchObject({ status: 'FAILED', failure_reason: expect.stringContaining('131026') });

    const fiveHundred = { status: 500, body: graphFixture('error-500-unknown.response') };
    stub.answerNext(fiveHundred, fiveHundred, fiveHundred);
    const later = await send('+14155550129');
    expect(later.outcome).toBe('retry_later');
    expect(await row(later.message.id)).toMatchObject({ status: 'QUEUED', send_started_at: null });
    const billed = await t.dataSource.query(`SELECT reference FROM ledger_entries WHERE kind = 'debit' AND debit_kind = 'message'`);
    expect(billed).toEqual([]);
  });
  /*
   * Decisions.md 33.16: a worker that died after Graph accepted a send and before SENT was recorded
   * leaves the message QUEUED under a stale lease. The retake does not send blindly: it waits
   * MESSAGE_RETAKE_GRACE_MS past the lease for a status webhook naming our id
   * (biz_opaque_callback_data), which adopts Graph's wamid; only a silent provider gets a resend.
   */
  it('a send whose worker died mid-send: the status webhook naming our id adopts it, nothing is sent again; a silent provider gets one resend after the grace', async () => {
    const sendKey = (to: string, idempotencyKey: string) =>
      t.get(SendMessage).send({ workspaceId: ws.workspaceId, channel: 'WHATSAPP', senderId, templateId, to, variables: { contact: { name: 'Ada' }, campaign: { order_ref: 'A-17' } }, idempotencyKey });
    // A dead worker's row: QUEUED, its lease taken and expired, no provider id. (Written by a first try
    // refused for now, whose lease is then put back the way a worker that died mid-send leaves it.)
    const fiveHundred = { status: 500, body: graphFixture('error-500-unknown.response') };
    const deadWorkerRow = async (to: string, key: string, leaseAgeSeconds: number) => {
      stub.answerNext(fiveHundred, fiveHundred, fiveHundred);
      const first = await sendKey(to, key);
      expect(first.outcome).toBe('retry_later');
      await t.dataSource.query(`UPDATE messages SET send_started_at = now() - make_interval(secs => $2) WHERE id = $1`, [first.message.id, leaseAgeSeconds]);
      stub.reset();
      return first.message.id;
    };
    const grace = t.config.messageRetakeGraceMs;
    expect(grace).toBeGreaterThan(5_000);
    const key = `attempt-${randomUUID()}`;
    const id = await deadWorkerRow('+14155550131', key, 61);

    // Within the grace the retake sends nothing: it waits for the report.
    const waiting = await sendKey('+14155550131', key);
    expect({ outcome: waiting.outcome, posts: stub.requests.length }).toEqual({ outcome: 'in_flight', posts: 0 });

    // Graph's status webhook names our message: it is recorded SENT under Graph's wamid (then
    // delivered, read) and billed once; the retake answers it without sending.
    const wamid = `wamid.adopted.${randomUUID()}`;
    expect((await signed(stub.statusWebhook({ wamid, opaque: id }), credentials.appSecret)).body).toEqual({ received: 2 });
    await waitFor('adopted and READ', async () => (await row(id)).status === 'READ', 10_000);
    expect(await row(id)).toMatchObject({ provider_message_id: wamid, send_started_at: null });
    const retaken = await sendKey('+14155550131', key);
    expect({ outcome: retaken.outcome, replayed: retaken.replayed, posts: stub.requests.length }).toEqual({ outcome: 'sent', replayed: true, posts: 0 });
    expect(await t.dataSource.query(`SELECT reference FROM ledger_entries WHERE kind = 'debit' AND debit_kind = 'message'`)).toEqual([{ reference: id }]);

    // A silent provider (no report within the grace): the retake sends once more, under the same
    // message id (the documented at-least-once fallback).
    const silentKey = `attempt-${randomUUID()}`;
    const silent = await deadWorkerRow('+14155550132', silentKey, 61 + grace / 1000);
    const resent = await sendKey('+14155550132', silentKey);
    const posted = stub.requests.map((r) => (r.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data);
    expect({ outcome: resent.outcome, posted }).toEqual({ outcome: 'sent', posted: [silent] });
  });
});
