import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import { Tariffs } from '@outreach/billing';
import { AppError } from '@outreach/core';
import { hubSignature, MessageEvent, MessageEventIntake, MessageLegs, MessagingQueue, OptOuts, SendMessage, SendMessageInput, UnsubscribeLinks } from '@outreach/messaging';
import { TransactionHost } from '@outreach/platform';
import { Queue } from 'bullmq';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { credit, expectError } from '../campaigns/campaign-helpers';
import { waitFor } from '../support/tcp-proxy';
import { capturing, rowsRead } from '../support/plans';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { connectSender, count, createTemplate, numberEndingIn } from './messaging-helpers';

/*
 * Issue 12 (next slice): messages through SendMessage (the entry point of the engine's legs, which
 * come later: the contract has no manual send route, so the service is called here against the
 * real database), delivery reports and replies through the signed webhooks and the worker, opt-outs,
 * GET /whatsapp/messages and the unsubscribe link. Decisions.md 30.12–30.17.
 */
describe('messages: SendMessage, webhooks, opt-outs, GET /whatsapp/messages', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;
  let senderId: string;
  let templateId: string;

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
    ws = await t.seed({ features: ['whatsapp', 'email'] });
    await credit(t, ws.workspaceId);
    const sender = await connectSender(t, ws.key, numberEndingIn(4));
    senderId = sender.id as string;
    const template = await createTemplate(t, ws.key);
    templateId = template.id as string;
    await t.http.post(`/whatsapp/templates/${templateId}/submit`).set(k());
    await waitFor('sender CONNECTED and template APPROVED', async () => {
      const [s, tp] = await Promise.all([t.http.get(`/whatsapp/senders/${senderId}`).set(k()), t.http.get(`/whatsapp/templates/${templateId}`).set(k())]);
      return s.body.status === 'CONNECTED' && tp.body.status === 'APPROVED';
    }, 20_000);
  });

  const k = () => bearer(ws.key);
  const input = (overrides: Partial<SendMessageInput> = {}): SendMessageInput => ({
    workspaceId: ws.workspaceId,
    channel: 'WHATSAPP',
    senderId,
    templateId,
    to: numberEndingIn(7),
    variables: { contact: { name: 'Ada' }, campaign: { order_ref: 'A-17' } },
    idempotencyKey: `attempt-${randomUUID()}`,
    ...overrides,
  });
  const send = (overrides: Partial<SendMessageInput> = {}) => t.get(SendMessage).send(input(overrides));
  const messageRow = async (id: string) => (await t.dataSource.query(`SELECT * FROM messages WHERE id = $1`, [id]))[0];
  const debits = async (reference: string) =>
    (await t.dataSource.query(`SELECT amount_minor FROM ledger_entries WHERE kind = 'debit' AND debit_kind = 'message' AND reference = $1`, [reference])).map(
      (r: { amount_minor: string }) => Number(r.amount_minor),
    );
  const expectAppError = async (promise: Promise<unknown>, status: number, code: string) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect({ status: (error as AppError).status, code: (error as AppError).code }).toEqual({ status, code });
  };
  const webhook = (id: string, body: unknown, secret = t.config.whatsappAppSecret) => {
    const raw = JSON.stringify(body);
    return t.http.post(`/webhooks/whatsapp/${id}`).set('Content-Type', 'application/json').set('X-Hub-Signature-256', hubSignature(secret, raw)).send(raw);
  };
  const cloudPayload = (value: Record<string, unknown>) => ({
    object: 'whatsapp_business_account',
    entry: [{ id: '102290129340398', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '106540352242922' }, ...value } }] }],
  });
  const unix = () => String(Math.floor(Date.now() / 1000));

  it('renders, sends, records SENT with the provider id and debits one TARIFF_MESSAGE_MINOR in the same transaction; a replayed key sends nothing twice', async () => {
    const key = `attempt-${randomUUID()}`;
    const to = numberEndingIn(7);
    const first = await send({ idempotencyKey: key, to });
    expect(first).toMatchObject({ outcome: 'sent', replayed: false });
    expect(first.message).toMatchObject({ channel: 'WHATSAPP', direction: 'OUTBOUND', contact: to, templateId, senderId, text: 'Hi Ada, your order A-17 is on its way. Thanks, Acme' });
    const row = await messageRow(first.message.id);
    expect(row.provider_message_id).toMatch(/^wamid\.sandbox\./);
    expect(row.sent_at).not.toBeNull();
    expect(row.content).toEqual({ kind: 'whatsapp_template', templateName: expect.any(String), language: 'en_US', parameters: ['Ada', 'A-17', 'Thanks, Acme'] });
    expect(await debits(first.message.id)).toEqual([t.config.tariffMessageMinor]);

    // The sandbox's reports (last digit 7: delivered and read) move it forward.
    await waitFor('READ', async () => (await messageRow(first.message.id)).status === 'READ', 10_000);

    const again = await send({ idempotencyKey: key, to });
    expect(again).toMatchObject({ outcome: 'sent', replayed: true, message: { id: first.message.id, status: 'READ' } });
    expect(await count(t, 'messages')).toBe(1);
    expect(await debits(first.message.id)).toHaveLength(1);

    // A key sent before is a replay even when the checks would refuse a new send now (44.8): the
    // contact opted out since, and a template that does not exist.
    await t.get(OptOuts).record(ws.workspaceId, 'WHATSAPP', to, 'test');
    expect(await send({ idempotencyKey: key, to, templateId: randomUUID() })).toMatchObject({ outcome: 'sent', replayed: true, message: { id: first.message.id, status: 'READ' } });
    expect(await count(t, 'messages')).toBe(1);
    expect(await debits(first.message.id)).toHaveLength(1);
  });

  it('sendMany answers each input as send would (decisions.md 47.5): new messages sent and billed in one transaction, a key sent before replayed, refusals with their codes', async () => {
    const earlier = await send({ idempotencyKey: 'batch-earlier', to: numberEndingIn(8) });
    const optedOut = numberEndingIn(7);
    await t.get(OptOuts).record(ws.workspaceId, 'WHATSAPP', optedOut, 'test');
    const debitsBefore = Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'debit'`))[0].n);

    const answers = await t.get(SendMessage).sendMany([
      input({ idempotencyKey: 'batch-a' }),
      input({ idempotencyKey: 'batch-earlier', to: numberEndingIn(8) }),
      input({ idempotencyKey: 'batch-b', to: optedOut }),
      input({ idempotencyKey: 'batch-c', to: numberEndingIn(1) }), // the sandbox refuses for now
      input({ idempotencyKey: 'batch-d', to: numberEndingIn(2) }),
      input({ idempotencyKey: 'batch-e', templateId: randomUUID() }),
      input({ idempotencyKey: 'batch-f', variables: { contact: { name: 'Ada' } } }), // a value missing
    ]);
    const summary = answers.map((a) => ('result' in a ? [a.result.outcome, a.result.replayed] : (a.error as AppError).code));
    expect(summary).toEqual([['sent', false], ['sent', true], 'contact_opted_out', ['retry_later', false], ['sent', false], 'template_not_found', 'invalid_request']);
    const sent = (i: number) => (answers[i] as { result: { message: { id: string } } }).result.message.id;
    expect(sent(1)).toBe(earlier.message.id);

    // One message per new key (the transient one stays QUEUED, unbilled), one debit per message sent.
    const rows: Array<{ idempotency_key: string; status: string; provider_message_id: string | null }> = await t.dataSource.query(
      `SELECT idempotency_key, status, provider_message_id FROM messages WHERE direction = 'OUTBOUND' AND idempotency_key LIKE 'batch-%' ORDER BY idempotency_key`,
    );
    expect(rows.map((r) => [r.idempotency_key, r.status === 'QUEUED' ? 'QUEUED' : 'accepted', r.provider_message_id !== null])).toEqual([
      ['batch-a', 'accepted', true],
      ['batch-c', 'QUEUED', false],
      ['batch-d', 'accepted', true],
      ['batch-earlier', 'accepted', true],
    ]);
    expect(await debits(sent(0))).toEqual([await t.get(Tariffs).messageCostMinor(ws.workspaceId)]);
    expect(await debits(sent(4))).toHaveLength(1);
    expect(await debits(sent(1))).toHaveLength(1);
    expect(Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'debit'`))[0].n)).toBe(debitsBefore + 2);

    // The same batch again: every key answers its message, nothing is sent or billed twice.
    const again = await t.get(SendMessage).sendMany([input({ idempotencyKey: 'batch-a' }), input({ idempotencyKey: 'batch-d', to: numberEndingIn(2) })]);
    expect(again.map((a) => ('result' in a ? [a.result.message.id, a.result.replayed] : a.error))).toEqual([
      [sent(0), true],
      [sent(4), true],
    ]);
    expect(Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'debit'`))[0].n)).toBe(debitsBefore + 2);
  });

  it('template_not_approved (400), template_not_found (404), contact_opted_out (409), a missing value (400 invalid_request): nothing written', async () => {
    const draft = await createTemplate(t, ws.key);
    await expectAppError(send({ templateId: draft.id as string }), 400, 'template_not_approved');
    await expectAppError(send({ templateId: randomUUID() }), 404, 'template_not_found');
    await expectAppError(send({ senderId: randomUUID() }), 404, 'not_found');
    await expectAppError(send({ variables: { contact: { name: 'Ada' } } }), 400, 'invalid_request');

    const optedOut = numberEndingIn(7);
    await t.get(OptOuts).record(ws.workspaceId, 'WHATSAPP', optedOut, 'test');
    await expectAppError(send({ to: optedOut }), 409, 'contact_opted_out');

    // Another workspace's template is unknown here.
    const other = await t.seed({ features: ['whatsapp'] });
    const foreign = await createTemplate(t, other.key);
    await expectAppError(send({ templateId: foreign.id as string }), 404, 'template_not_found');

    expect(await count(t, 'messages')).toBe(0);
    expect(Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'debit'`))[0].n)).toBe(0);
  });

  it('a transient refusal leaves the message QUEUED, unbilled, for the same key to retry; a STOP reply opts the contact out of later sends', async () => {
    const transient = await send({ to: numberEndingIn(1) });
    expect(transient.outcome).toBe('retry_later');
    expect((await messageRow(transient.message.id)).status).toBe('QUEUED');
    expect(await debits(transient.message.id)).toEqual([]);

    // A send in progress (fresh lease) is not taken by a second caller with the same key; a stale
    // lease (its sender died) is, and the message is sent under its first id. (The address is
    // changed in the row so that the sandbox accepts the retry.)
    const key = `attempt-${randomUUID()}`;
    const queued = await send({ to: numberEndingIn(1), idempotencyKey: key });
    await t.dataSource.query(`UPDATE messages SET address = $2, send_started_at = now() WHERE id = $1`, [queued.message.id, numberEndingIn(9)]);
    expect(await send({ idempotencyKey: key })).toMatchObject({ outcome: 'in_flight', replayed: true, message: { id: queued.message.id, status: 'QUEUED' } });
    await t.dataSource.query(`UPDATE messages SET send_started_at = now() - interval '5 minutes' WHERE id = $1`, [queued.message.id]);
    expect(await send({ idempotencyKey: key })).toMatchObject({ outcome: 'sent', replayed: false, message: { id: queued.message.id } });
    expect(await debits(queued.message.id)).toEqual([t.config.tariffMessageMinor]);

    // Last digit 4: the sandbox reports a "STOP" reply, stored as an inbound message; the opt-out holds for later sends.
    const to = numberEndingIn(4);
    const sent = await send({ to });
    expect(sent.outcome).toBe('sent');
    await waitFor('the STOP opt-out', () => t.get(OptOuts).isOptedOut(ws.workspaceId, 'WHATSAPP', to), 10_000);
    const [reply] = await t.dataSource.query(`SELECT * FROM messages WHERE direction = 'INBOUND'`);
    expect(reply).toMatchObject({ status: 'RECEIVED', address: to, body: 'STOP', in_reply_to_id: sent.message.id });
    const before = await count(t, 'messages');
    await expectAppError(send({ to }), 409, 'contact_opted_out');
    expect(await count(t, 'messages')).toBe(before);
  });

  it('GET /whatsapp/messages: the latest 200, newest first, sent and received, with the documented fields', async () => {
    const sent = await send({ to: numberEndingIn(5) });
    await waitFor('the reply', async () => (await count(t, 'messages')) === 2, 10_000);
    const listed = await t.http.get('/whatsapp/messages').set(k());
    expect(listed.status).toBe(200);
    expect(listed.body.messages).toHaveLength(2);
    const [reply, outbound] = listed.body.messages;
    expect(reply).toMatchObject({ direction: 'INBOUND', status: 'RECEIVED', text: 'Yes, interested', inReplyToId: sent.message.id, templateId: null });
    expect(outbound).toMatchObject({ id: sent.message.id, direction: 'OUTBOUND', status: 'READ' });

    // 205 more rows: the window stays at 200, newest first.
    await t.dataSource.query(
      `INSERT INTO messages (id, workspace_id, channel, direction, status, sender_id, address, body, provider, created_at)
       SELECT gen_random_uuid(), $1, 'WHATSAPP', 'OUTBOUND', 'SENT', $2, '+14155550007', 'bulk ' || g, 'sandbox', now() + (g || ' seconds')::interval
       FROM generate_series(1, 205) g`,
      [ws.workspaceId, senderId],
    );
    const window = await t.http.get('/whatsapp/messages').set(k());
    expect(window.body.messages).toHaveLength(200);
    expect(window.body.messages[0].text).toBe('bulk 205');
    expect(window.body.messages[199].text).toBe('bulk 6');

    // Another workspace sees none of them; the feature flag and the scope hold.
    const other = await t.seed({ features: ['whatsapp'] });
    expect((await t.http.get('/whatsapp/messages').set(bearer(other.key))).body).toEqual({ messages: [] });
    const noFeature = await t.seed();
    expectError(await t.http.get('/whatsapp/messages').set(bearer(noFeature.key)), 403, 'feature_not_available');
  });

  it('POST /webhooks/whatsapp/{senderId}: a bad or missing signature is 401 with nothing stored; statuses move messages forward only; a STOP reply opts out', async () => {
    const sent = await send({ to: numberEndingIn(2) });
    await waitFor('DELIVERED', async () => (await messageRow(sent.message.id)).status === 'DELIVERED', 10_000);
    const wamid = (await messageRow(sent.message.id)).provider_message_id as string;
    const outboxBefore = await count(t, 'outbox');

    const read = cloudPayload({ statuses: [{ id: wamid, status: 'read', timestamp: unix(), recipient_id: sent.message.contact.slice(1) }] });
    expectError(await webhook(senderId, read, 'not-the-secret'), 401, 'unauthorized');
    const unsigned = await t.http.post(`/webhooks/whatsapp/${senderId}`).set('Content-Type', 'application/json').send(JSON.stringify(read));
    expectError(unsigned, 401, 'unauthorized');
    expectError(await webhook(randomUUID(), read), 401, 'unauthorized');
    expect(await count(t, 'outbox')).toBe(outboxBefore);
    expect((await messageRow(sent.message.id)).status).toBe('DELIVERED');

    const accepted = await webhook(senderId, read);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ received: 1 });
    await waitFor('READ by the webhook', async () => (await messageRow(sent.message.id)).status === 'READ', 10_000);

    // Late, repeated and reordered reports change nothing.
    const late = cloudPayload({
      statuses: [
        { id: wamid, status: 'delivered', timestamp: unix(), recipient_id: '1' },
        { id: wamid, status: 'read', timestamp: unix(), recipient_id: '1' },
        { id: wamid, status: 'failed', timestamp: unix(), recipient_id: '1', errors: [{ code: 131026, title: 'Message undeliverable' }] },
      ],
    });
    expect((await webhook(senderId, late)).body).toEqual({ received: 3 });
    const from = numberEndingIn(8);
    expect((await webhook(senderId, cloudPayload({ messages: [{ from: from.slice(1), id: `wamid.in.${randomUUID()}`, timestamp: unix(), type: 'text', text: { body: '  Stop ' } }] }))).status).toBe(200);
    await waitFor('the STOP opt-out', () => t.get(OptOuts).isOptedOut(ws.workspaceId, 'WHATSAPP', from), 10_000);
    // Each report is a provider-report job, through the outbox: applied once the outbox is drained and the worker's messaging queue is idle.
    const messagingQueue = worker.get<Queue>(getQueueToken(MessagingQueue.Messaging) as never);
    await waitFor('the late reports applied', async () => {
      const [undispatched] = await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE dispatched_at IS NULL`);
      const counts = await messagingQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return undispatched.n === 0 && Object.values(counts).every((n) => n === 0);
    }, 10_000);
    const row = await messageRow(sent.message.id);
    expect({ status: row.status, failedAt: row.failed_at }).toEqual({ status: 'READ', failedAt: null });
    const [inbound] = await t.dataSource.query(`SELECT * FROM messages WHERE direction = 'INBOUND'`);
    expect(inbound).toMatchObject({ address: from, body: '  Stop ', workspace_id: ws.workspaceId, sender_id: senderId });
  });

  it('a report applied twice, in one batch or in two, changes nothing the second time: no ledger of event ids needed (decisions.md 47.19)', async () => {
    const to = numberEndingIn(2);
    const sent = await send({ to });
    await waitFor('DELIVERED', async () => (await messageRow(sent.message.id)).status === 'DELIVERED', 10_000);
    const row = await messageRow(sent.message.id);
    const base = { channel: 'WHATSAPP' as const, provider: row.provider, messageId: sent.message.id, providerMessageId: row.provider_message_id };
    const readAt = new Date(Date.now() - 60_000);
    const replyId = `wamid.in.${randomUUID()}`;
    const batch: MessageEvent[] = [
      { ...base, type: 'read', eventId: `${row.provider_message_id}:read`, at: readAt },
      { ...base, type: 'read', eventId: `${row.provider_message_id}:read`, at: readAt },
      { ...base, type: 'replied', eventId: replyId, text: 'STOP', at: readAt },
      { ...base, type: 'replied', eventId: replyId, text: 'STOP', at: readAt },
      { ...base, type: 'delivered', eventId: `${row.provider_message_id}:delivered`, at: new Date() },
    ];
    const intake = t.get(MessageEventIntake);
    const state = async () => {
      const m = await messageRow(sent.message.id);
      const [inbound] = await t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE direction = 'INBOUND' AND provider_message_id = $1`, [replyId]);
      const [optOuts] = await t.dataSource.query(`SELECT count(*)::int AS n FROM message_opt_outs WHERE workspace_id = $1 AND address = $2`, [ws.workspaceId, to]);
      return { status: m.status, readAt: m.read_at.toISOString(), updatedAt: m.updated_at.toISOString(), inbound: inbound.n, optOuts: optOuts.n };
    };
    await intake.applyMany(batch);
    const first = await state();
    expect(first).toMatchObject({ status: 'READ', readAt: readAt.toISOString(), inbound: 1, optOuts: 1 });
    await intake.applyMany(batch);
    expect(await state()).toEqual(first);
  });

  it('a reply quoting nothing answers the latest message its sender sent to that number in the last 7 days (decisions.md 33.20); else it is stored unanswered', async () => {
    const to = numberEndingIn(2);
    const older = await send({ to });
    const latest = await send({ to });
    const lapsed = numberEndingIn(2);
    const stale = await send({ to: lapsed });
    const failed = numberEndingIn(2);
    const refused = await send({ to: failed });
    await waitFor('DELIVERED', async () => {
      const rows = await t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE status = 'DELIVERED'`);
      return rows[0].n === 4;
    }, 10_000);
    await t.dataSource.query(`UPDATE messages SET created_at = now() - interval '8 days' WHERE id = $1`, [stale.message.id]);
    await t.dataSource.query(`UPDATE messages SET status = 'FAILED' WHERE id = $1`, [refused.message.id]);
    const other = await connectSender(t, ws.key, numberEndingIn(4));
    await waitFor('the second sender CONNECTED', async () => (await t.http.get(`/whatsapp/senders/${other.id}`).set(k())).body.status === 'CONNECTED', 20_000);

    const reply = async (sender: string, from: string, text: string, context?: string) => {
      const id = `wamid.in.${randomUUID()}`;
      const message = { from: from.slice(1), id, timestamp: unix(), type: 'text', text: { body: text }, ...(context ? { context: { from: '15550001234', id: context } } : {}) };
      expect((await webhook(sender, cloudPayload({ messages: [message] }))).status).toBe(200);
      return id;
    };
    const answers = {
      unquoted: await reply(senderId, to, 'Sounds good'),
      quoted: await reply(senderId, to, 'About the first one', (await messageRow(older.message.id)).provider_message_id),
      otherSender: await reply(other.id as string, to, 'Who is this?'),
      lapsed: await reply(senderId, lapsed, 'Late answer'),
      failed: await reply(senderId, failed, 'Did you write?'),
    };
    const ids = Object.values(answers);
    await waitFor('five replies stored', async () => {
      const rows = await t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE direction = 'INBOUND' AND provider_message_id = ANY($1)`, [ids]);
      return rows[0].n === 5;
    }, 10_000);
    const rows: Array<{ provider_message_id: string; in_reply_to_id: string | null; sender_id: string }> = await t.dataSource.query(
      `SELECT provider_message_id, in_reply_to_id, sender_id FROM messages WHERE direction = 'INBOUND'`,
    );
    const answered = Object.fromEntries(Object.entries(answers).map(([name, id]) => [name, rows.find((r) => r.provider_message_id === id)?.in_reply_to_id]));
    expect(answered).toEqual({ unquoted: latest.message.id, quoted: older.message.id, otherSender: null, lapsed: null, failed: null });
    expect(rows.find((r) => r.provider_message_id === answers.otherSender)?.sender_id).toBe(other.id);
  });

  it("a sender's report never touches another sender's message (tenancy); a report about an unknown message waits, then is dropped", async () => {
    const sent = await send({ to: numberEndingIn(2) });
    await waitFor('DELIVERED', async () => (await messageRow(sent.message.id)).status === 'DELIVERED', 10_000);
    const wamid = (await messageRow(sent.message.id)).provider_message_id as string;
    const other = await t.seed({ features: ['whatsapp'] });
    const foreignSender = await connectSender(t, other.key, numberEndingIn(3));
    const report = (at: Date) => ({
      type: 'status' as const,
      channel: 'WHATSAPP' as const,
      provider: 'sandbox',
      eventId: `${wamid}:read:${at.getTime()}`,
      providerMessageId: wamid,
      status: 'read' as const,
      at: at.toISOString(),
    });
    const intake = t.get(MessageEventIntake);
    // Recent: the message may still be committing its SENT → RetryLater; old: dropped. Either way A's message is untouched.
    await expect(intake.applyReport(foreignSender.id as string, report(new Date()))).rejects.toMatchObject({ name: 'RetryLater' });
    await intake.applyReport(foreignSender.id as string, report(new Date(Date.now() - 3_600_000)));
    expect((await messageRow(sent.message.id)).status).toBe('DELIVERED');
    await intake.applyReport(senderId, report(new Date()));
    expect((await messageRow(sent.message.id)).status).toBe('READ');
  });

  it('a retried send whose sender was disconnected meanwhile FAILS (nothing sent, nothing billed)', async () => {
    const key = `attempt-${randomUUID()}`;
    const queued = await send({ to: numberEndingIn(1), idempotencyKey: key });
    expect(queued.outcome).toBe('retry_later');
    expect((await t.http.delete(`/whatsapp/senders/${senderId}`).set(k())).status).toBe(204);
    expect(await send({ idempotencyKey: key })).toMatchObject({ outcome: 'failed', message: { id: queued.message.id, status: 'FAILED', failureReason: expect.stringContaining('disconnected') } });
    expect(await debits(queued.message.id)).toEqual([]);
  });

  it('replies to a batch of messages are found by one index probe per message, also with statistics older than the table (decisions.md 47.16)', async () => {
    // The statistics say the table is empty, as on a new database or with autovacuum behind; then
    // 3,000 messages arrive, two of them answered.
    await t.dataSource.query(`ANALYZE messages`);
    const ids: string[] = (
      await t.dataSource.query(
        `INSERT INTO messages (id, workspace_id, channel, direction, status, sender_id, address, body, provider)
         SELECT gen_random_uuid(), $1, 'WHATSAPP', 'OUTBOUND', 'SENT', $2, '+1555' || lpad(i::text, 7, '0'), 'hello', 'sandbox'
           FROM generate_series(1, 3000) AS i
         RETURNING id`,
        [ws.workspaceId, senderId],
      )
    ).map((row: { id: string }) => row.id);
    await t.dataSource.query(
      `INSERT INTO messages (id, workspace_id, channel, direction, status, sender_id, address, body, provider, in_reply_to_id)
       SELECT gen_random_uuid(), $1, 'WHATSAPP', 'INBOUND', 'RECEIVED', $2, '+15550000001', 'yes', 'sandbox', unnest($3::uuid[])`,
      [ws.workspaceId, senderId, [ids[5], ids[150]]],
    );
    const batch = ids.slice(0, 200);
    const { result: replied, sent } = await capturing(t.get(TransactionHost), (sql) => sql.includes('in_reply_to_id'), () => t.get(MessageLegs).repliedAmong(batch));
    expect([...replied].sort()).toEqual([ids[5], ids[150]].sort());
    expect(sent).toHaveLength(1);
    // The two replies, nothing else (as `in_reply_to_id = ANY(…)` it read all 3,002 rows).
    expect(await rowsRead(t.dataSource, sent[0], 'messages')).toBe(2);
  });

  it('a batch\'s opt-outs are looked up by one probe per address, also with statistics older than the table (decisions.md 47.22)', async () => {
    // The statistics say no one opted out; then 3,000 numbers do, two of them in the batch.
    await t.dataSource.query(`ANALYZE message_opt_outs`);
    await t.dataSource.query(
      `INSERT INTO message_opt_outs (workspace_id, channel, address, source)
       SELECT $1, 'WHATSAPP', '+1666' || lpad(i::text, 7, '0'), 'test' FROM generate_series(1, 3000) AS i`,
      [ws.workspaceId],
    );
    const to = Array.from({ length: 200 }, (_, i) => `+1415${5_550_007 + i * 10}`);
    to[3] = '+16660000004';
    to[120] = '+16660002999';
    const { result, sent } = await capturing(
      t.get(TransactionHost),
      (sql) => sql.includes('message_opt_outs') && !sql.startsWith('INSERT'),
      () => t.get(SendMessage).sendMany(to.map((number) => input({ to: number }))),
    );
    const refused = result.flatMap((r, i) => ('error' in r ? [{ i, code: (r.error as AppError).code }] : []));
    expect(refused).toEqual([
      { i: 3, code: 'contact_opted_out' },
      { i: 120, code: 'contact_opted_out' },
    ]);
    expect(result.filter((r) => 'result' in r && r.result.outcome === 'sent')).toHaveLength(198);
    // The batch's one look-up, then each opted-out number on its own (as `send` answers it).
    const batch = sent.filter((statement) => Array.isArray(statement.params[2]));
    expect(batch).toHaveLength(1);
    // The two opt-outs, nothing else (as `address = ANY(…)` it read all 3,000).
    expect(await rowsRead(t.dataSource, batch[0], 'message_opt_outs')).toBe(2);
  });

  it('GET /webhooks/whatsapp/{senderId}: the verification handshake answers the challenge for the right token only', async () => {
    const ok = await t.http.get(`/webhooks/whatsapp/${senderId}`).query({ 'hub.mode': 'subscribe', 'hub.verify_token': t.config.whatsappWebhookVerifyToken, 'hub.challenge': '1158201444' });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('1158201444');
    const wrong = await t.http.get(`/webhooks/whatsapp/${senderId}`).query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '1' });
    expectError(wrong, 401, 'unauthorized');
    expectError(
      await t.http.get(`/webhooks/whatsapp/${randomUUID()}`).query({ 'hub.mode': 'subscribe', 'hub.verify_token': t.config.whatsappWebhookVerifyToken, 'hub.challenge': '1' }),
      401,
      'unauthorized',
    );
  });

  describe('email', () => {
    let mailbox: string;
    let emailTemplate: string;

    beforeEach(async () => {
      const m = await t.http
        .post('/email/senders')
        .set(k())
        .send({ fromAddress: 'sales@example.com', displayName: 'Acme Sales', replyTo: 'replies@example.com', smtp: { host: 'smtp.example.com', port: 587, username: 'u', password: 'p', secure: false } });
      mailbox = m.body.id;
      const tp = await t.http
        .post('/email/templates')
        .set(k())
        .send({ name: 'Offer', subject: 'An offer for {{1}}', htmlBody: '<p>Hi {{1}}</p>', textBody: 'Hi {{1}}', bindings: [{ placeholder: 1, source: 'CONTACT_FIELD', value: 'name' }] });
      emailTemplate = tp.body.id;
    });

    const sendEmail = (to: string) =>
      send({ channel: 'EMAIL', senderId: mailbox, templateId: emailTemplate, to, variables: { contact: { name: '<Ada>' } } });
    const emailWebhook = (id: string, body: unknown, secret = t.config.emailWebhookSecret) => {
      const raw = JSON.stringify(body);
      return t.http.post(`/webhooks/email/${id}`).set('Content-Type', 'application/json').set('X-Hub-Signature-256', hubSignature(secret, raw)).send(raw);
    };

    it('sends and bills an email (HTML values escaped); a complaint opts out; a hard bounce by webhook fails the message; bad signature 401', async () => {
      const sent = await sendEmail('Ada@Example.com');
      expect(sent).toMatchObject({ outcome: 'sent', message: { channel: 'EMAIL', contact: 'ada@example.com', subject: 'An offer for <Ada>', text: 'Hi <Ada>' } });
      expect((await messageRow(sent.message.id)).content.html).toBe('<p>Hi &lt;Ada&gt;</p>');
      expect(await debits(sent.message.id)).toEqual([t.config.tariffMessageMinor]);

      // The sandbox's complaint (local part "complain") is an opt-out.
      await sendEmail('complain.me@example.com');
      await waitFor('the complaint opt-out', () => t.get(OptOuts).isOptedOut(ws.workspaceId, 'EMAIL', 'complain.me@example.com'), 10_000);
      await expectAppError(sendEmail('Complain.Me@example.com'), 409, 'contact_opted_out');

      const providerId = (await messageRow(sent.message.id)).provider_message_id;
      const bounce = { events: [{ id: `evt-${randomUUID()}`, type: 'bounce', bounceType: 'hard', messageId: providerId, reason: '550 no such user', timestamp: new Date().toISOString() }] };
      expectError(await emailWebhook(mailbox, bounce, 'wrong'), 401, 'unauthorized');
      expectError(await emailWebhook(randomUUID(), bounce), 401, 'unauthorized');
      expect((await messageRow(sent.message.id)).status).not.toBe('FAILED');
      expect((await emailWebhook(mailbox, bounce)).body).toEqual({ received: 1 });
      await waitFor('FAILED by the bounce', async () => (await messageRow(sent.message.id)).status === 'FAILED', 10_000);
      expect((await messageRow(sent.message.id)).failure_reason).toContain('550 no such user');

      const complaint = { events: [{ id: `evt-${randomUUID()}`, type: 'complaint', messageId: providerId, timestamp: new Date().toISOString() }] };
      expect((await emailWebhook(mailbox, complaint)).status).toBe(200);
      await waitFor('the webhook complaint opt-out', () => t.get(OptOuts).isOptedOut(ws.workspaceId, 'EMAIL', 'ada@example.com'), 10_000);
    });

    it('the unsubscribe link (GET or one-click POST) records an opt-out; an altered token is 401 and records nothing', async () => {
      const url = t.get(UnsubscribeLinks).urlFor(ws.workspaceId, 'EMAIL', 'bob@example.com');
      const path = new URL(url).pathname;
      expect(path).toMatch(/^\/webhooks\/email\/unsubscribe\/[\w-]+\.[\w-]{43}$/);
      // A character of the MAC changed; and its last character spelled another way that decodes to
      // the same bytes (the 43rd character's 2 unused bits): only the token as written is accepted.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const changed = (at: number, to: (index: number) => number) => {
        const index = alphabet.indexOf(path.at(at)!);
        return `${path.slice(0, at)}${alphabet[to(index)]}${at === -1 ? '' : path.slice(at + 1)}`;
      };
      expectError(await t.http.get(changed(-10, (i) => (i + 1) % 64)), 401, 'unauthorized');
      expectError(await t.http.get(changed(-1, (i) => i ^ 1)), 401, 'unauthorized');
      expectError(await t.http.get('/webhooks/email/unsubscribe/not-a-token'), 401, 'unauthorized');
      expect(await count(t, 'message_opt_outs')).toBe(0);
      const res = await t.http.get(path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ unsubscribed: true, channel: 'EMAIL' });
      expect(await t.get(OptOuts).isOptedOut(ws.workspaceId, 'EMAIL', 'bob@example.com')).toBe(true);
      expect((await t.http.post(path)).status).toBe(200);
      await expectAppError(sendEmail('bob@example.com'), 409, 'contact_opted_out');
    });
  });
});
