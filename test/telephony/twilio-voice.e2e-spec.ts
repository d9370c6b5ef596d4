import { AddressInfo } from 'node:net';
import { PhoneNumberAdministration, VoiceProvider } from '@outreach/telephony';
import { createCampaign, credit, expectError } from '../campaigns/campaign-helpers';
import { startCampaign, startWorker } from '../engine/engine-harness';
import { countCalls, ledger } from '../calls/call-fixtures';
import { createActiveAgent } from '../support/agent-fixtures';
import { waitFor } from '../support/tcp-proxy';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { TwilioStub, twilioFixtures } from '../support/voice-provider-stubs';
import { WorkerApp } from '../support/worker-app';

/*
 * Twilio as a workspace's carrier (decisions.md 27.3), end to end against a local stub of Twilio's
 * REST API: POST /calls/test and a campaign place the call with the form Twilio documents, the stub
 * sends signed status callbacks to POST /webhooks/voice/twilio (through the real app, on a real
 * port, as Twilio would behind PUBLIC_BASE_URL), and the call ends with Twilio's outcome, its debit
 * and its result. Refusals answer the contract's codes and change nothing.
 */
const PUBLIC_BASE_URL = 'https://outreach.example.test';
const TARIFF_VOICE_MINUTE_MINOR = 10; // config default
const FROM = '+14155550142';

jest.setTimeout(120_000);

describe('Twilio voice adapter (stub)', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let stub: TwilioStub;
  let local: string;
  let ws: Seeded;
  let agentId: string;
  let numberId: string;
  let keyNo = 0;

  beforeAll(async () => {
    stub = await new TwilioStub().start();
    process.env.PUBLIC_BASE_URL = PUBLIC_BASE_URL;
    process.env.CALL_POLL_INTERVAL_MS = '500'; // the worker asks Twilio about a live campaign call every 0.5 s
    try {
      t = await TestApp.create();
      worker = await startWorker();
    } finally {
      delete process.env.PUBLIC_BASE_URL;
      delete process.env.CALL_POLL_INTERVAL_MS;
    }
    await t.app.listen(0, '127.0.0.1');
    local = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await stub?.stop();
  });
  beforeEach(async () => {
    await t.reset();
    stub.requests.length = 0;
    stub.script.length = 0;
    stub.errorsByTo.clear();
    ws = await t.seed();
    await credit(t, ws.workspaceId, 10_000);
    agentId = (await createActiveAgent(t, ws.key)).id;
    const admin = t.get(PhoneNumberAdministration);
    await admin.configureCarrier({
      workspaceId: ws.workspaceId,
      carrier: 'twilio',
      adapter: 'twilio',
      baseUrl: stub.baseUrl,
      credentials: { accountSid: stub.accountSid, authToken: stub.authToken },
    });
    numberId = (await admin.add({ workspaceId: ws.workspaceId, e164: FROM, carrier: 'twilio' })).id;
  });

  const freshKey = () => `twilio-${++keyNo}-${Math.random().toString(36).slice(2, 8)}`;
  const testCall = (toNumber: string, key = freshKey()) =>
    t.http.post('/calls/test').set(bearer(ws.key)).set('Idempotency-Key', key).send({ agentId, toNumber, fromPhoneNumberId: numberId });
  const call = async (id: string) =>
    (await t.dataSource.query(`SELECT status, outcome, provider_disposition, duration_ms FROM calls WHERE id = $1`, [id]))[0] as Record<string, unknown>;
  const until = (what: string, check: () => Promise<boolean>) => waitFor(what, check, 30_000, 25);
  const debits = async () => (await ledger(t, ws.workspaceId)).filter((e) => e.kind === 'debit');
  const outboxRows = async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox`))[0].n as number;
  const creates = () => stub.to('POST', /\/Calls\.json$/);

  it('a test call: form-encoded create with status callbacks and AMD; signed callbacks move it on and end it completed, billed per started minute', async () => {
    const to = '+14155550160'; // the sandbox would say no_answer: Twilio decides here
    const res = await testCall(to);
    expect(res.status).toBe(201);
    expect(['DIALING', 'RINGING', 'IN_PROGRESS']).toContain(res.body.status);
    expect(JSON.stringify(res.body)).not.toContain(stub.authToken);

    expect(creates()).toHaveLength(1);
    const form = new URLSearchParams(creates()[0].body);
    expect(creates()[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form.get('To')).toBe(to);
    expect(form.get('From')).toBe(FROM);
    expect(form.get('StatusCallback')).toBe(`${PUBLIC_BASE_URL}/webhooks/voice/twilio?callId=${res.body.id}`);
    expect(form.getAll('StatusCallbackEvent')).toEqual(['initiated', 'ringing', 'answered', 'completed']);
    expect(form.get('MachineDetection')).toBe('Enable');
    expect(form.get('Twiml') ?? form.get('Url')).toBeTruthy();

    const placed = stub.callTo(to);
    const initiated = await stub.send(local, stub.callback(placed, 'initiated'));
    expect(initiated).toBe(200);
    expect(await stub.send(local, stub.callback(placed, 'ringing'))).toBe(200);
    await until('RINGING', async () => (await call(res.body.id)).status === 'RINGING');
    expect(await stub.send(local, stub.callback(placed, 'in-progress', { AnsweredBy: 'human' }))).toBe(200);
    await until('IN_PROGRESS', async () => (await call(res.body.id)).status === 'IN_PROGRESS');
    expect(await stub.send(local, stub.callback(placed, 'completed', { CallDuration: '75', AnsweredBy: 'human' }))).toBe(200);
    await until('ENDED', async () => (await call(res.body.id)).status === 'ENDED');

    expect(await call(res.body.id)).toEqual({ status: 'ENDED', outcome: 'completed', provider_disposition: 'completed', duration_ms: 75_000 });
    const read = await t.http.get(`/calls/${res.body.id}`).set(bearer(ws.key));
    expect(read.body).toMatchObject({ kind: 'test', status: 'ENDED', outcome: 'completed', durationMs: 75_000, fromNumber: FROM, toNumber: to });
    expect(await debits()).toEqual([
      expect.objectContaining({ debit_kind: 'test_call', reference: res.body.id, amount_minor: String(2 * TARIFF_VOICE_MINUTE_MINOR) }),
    ]);
    // Twilio's record answers the poll the same way (GET Calls/{CallSid}.json).
    expect(await t.get(VoiceProvider).lookupCall(res.body.id)).toMatchObject({ state: 'ended', result: { outcome: 'completed', durationMs: 75_000, providerCallId: placed.sid } });
  });

  it('AnsweredBy machine_* ends it as voicemail (billed); no-answer and busy end unbilled', async () => {
    const machine = await testCall('+14155550161');
    const vm = stub.callTo('+14155550161');
    await stub.send(local, stub.callback(vm, 'completed', { CallDuration: '30', AnsweredBy: 'machine_end_beep' }));
    const noAnswer = await testCall('+14155550162');
    await stub.send(local, stub.callback(stub.callTo('+14155550162'), 'no-answer', { CallDuration: '0' }));
    const busy = await testCall('+14155550163');
    await stub.send(local, stub.callback(stub.callTo('+14155550163'), 'busy', { CallDuration: '0' }));
    for (const id of [machine.body.id, noAnswer.body.id, busy.body.id]) await until(`call ${id} ended`, async () => (await call(id)).status === 'ENDED');

    expect(await call(machine.body.id)).toMatchObject({ outcome: 'voicemail', provider_disposition: 'machine', duration_ms: 30_000 });
    expect(await call(noAnswer.body.id)).toMatchObject({ outcome: 'no_answer', duration_ms: 0 });
    expect(await call(busy.body.id)).toMatchObject({ outcome: 'busy', duration_ms: 0 });
    expect(await debits()).toEqual([expect.objectContaining({ reference: machine.body.id, amount_minor: String(TARIFF_VOICE_MINUTE_MINOR) })]);
  });

  it('a bad, missing or other account\'s signature, a body changed after signing, a call that is not ours → 401 unauthorized, nothing stored', async () => {
    const res = await testCall('+14155550165');
    const placed = stub.callTo('+14155550165');
    const before = await outboxRows();
    const cb = stub.callback(placed, 'completed', { CallDuration: '75' });

    expect(await stub.send(local, cb, 'bm90LWEtc2lnbmF0dXJl')).toBe(401);
    const noHeader = await t.http.post(new URL(cb.url).pathname + new URL(cb.url).search).set('content-type', 'application/x-www-form-urlencoded').send(cb.params.toString());
    expectError(noHeader, 401, 'unauthorized');
    expect(await stub.send(local, cb, stub.sign(cb.url, cb.params, 'another-accounts-token'))).toBe(401);
    // Signed for the local URL, not the public one Twilio was given: the signature covers the full URL.
    expect(await stub.send(local, cb, stub.sign(`${local}/webhooks/voice/twilio?callId=${res.body.id}`, cb.params))).toBe(401);
    const signature = stub.sign(cb.url, cb.params);
    const tampered = { url: cb.url, params: new URLSearchParams(cb.params) };
    tampered.params.set('CallDuration', '7500');
    expect(await stub.send(local, tampered, signature)).toBe(401);
    const stranger = { url: `${PUBLIC_BASE_URL}/webhooks/voice/twilio?callId=00000000-0000-4000-8000-000000000000`, params: cb.params };
    expect(await stub.send(local, stranger)).toBe(401);

    expect(await outboxRows()).toBe(before);
    expect(await call(res.body.id)).toMatchObject({ status: 'DIALING', outcome: null });
    expect(await debits()).toEqual([]);
  });

  it('form-encoded bodies are read on the webhook routes only: elsewhere the API still takes JSON alone', async () => {
    const form = new URLSearchParams({ name: 'Form agent', prompt: 'Hello there, this is a prompt.', voice: 'aria' }).toString();
    const res = await t.http.post('/agents').set(bearer(ws.key)).set('content-type', 'application/x-www-form-urlencoded').send(form);
    expectError(res, 400, 'invalid_body');
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM agents WHERE name = 'Form agent'`))[0].n).toBe(0);
  });

  it('Twilio answering 5xx: retried (3 tries), then 502 provider_error with upstreamStatus; nothing recorded, and the same key places the call once Twilio is back', async () => {
    const fail = { status: 503, body: twilioFixtures.errors.serviceUnavailable };
    stub.script.push(fail, fail, fail);
    const key = freshKey();
    const refused = await testCall('+14155550167', key);
    expectError(refused, 502, 'provider_error');
    expect(refused.body.upstreamStatus).toBe(503);
    expect(creates()).toHaveLength(3);
    expect(await countCalls(t)).toBe(0);
    expect(await debits()).toEqual([]);

    const again = await testCall('+14155550167', key);
    expect(again.status).toBe(201);
    expect(creates()).toHaveLength(4);
  });

  it('Twilio refusing our caller id (21210) → 409 phone_number_released_upstream; an invalid To (21211) → 400 invalid_phone; a 4xx it has no code for → 502 with its status; nothing recorded', async () => {
    stub.errorsByTo.set('+14155550168', twilioFixtures.errors.fromNotOwned);
    expectError(await testCall('+14155550168'), 409, 'phone_number_released_upstream');
    stub.errorsByTo.set('+14155550169', twilioFixtures.errors.invalidTo);
    expectError(await testCall('+14155550169'), 400, 'invalid_phone');
    stub.errorsByTo.set('+14155550170', { code: 21215, message: 'Geo permission not enabled', status: 400 });
    const geo = await testCall('+14155550170');
    expectError(geo, 502, 'provider_error');
    expect(geo.body.upstreamStatus).toBe(400);
    expect(creates()).toHaveLength(3); // a 4xx is not retried
    expect(await countCalls(t)).toBe(0);
    expect(await debits()).toEqual([]);
  });

  it('an API campaign whose caller id is on Twilio dials a pushed lead through it; the signed ending settles the contact, debits and writes the lead\'s result', async () => {
    const campaign = await createCampaign(t, ws.key, { source: 'API', agentId, timezone: 'UTC', dailyWindowStart: '00:00', dailyWindowEnd: '00:00', recipientHours: 'off' });
    const attached = await t.http.post(`/campaigns/${campaign.id}/phone-numbers`).set(bearer(ws.key)).send({ phoneNumberId: numberId });
    expect(attached.status).toBe(200);
    await startCampaign(t, ws, campaign.id);
    const to = '+14155550171';
    const lead = await t.http.post(`/v1/campaigns/${campaign.id}/leads`).set(bearer(ws.key)).send({ idempotencyKey: freshKey(), phone: to, name: 'Dana' });
    expect(lead.status).toBeLessThan(300);

    await until('the campaign dialled Twilio', async () => creates().length === 1);
    const placed = stub.callTo(to);
    const callId = new URL(placed.params.get('StatusCallback')!).searchParams.get('callId')!;
    await until('DIALING', async () => (await call(callId))?.status === 'DIALING');
    expect(await stub.send(local, stub.callback(placed, 'in-progress'))).toBe(200);
    expect(await stub.send(local, stub.callback(placed, 'completed', { CallDuration: '125', AnsweredBy: 'human' }))).toBe(200);

    const contact = async () => (await t.dataSource.query(`SELECT status, last_outcome FROM campaign_contacts WHERE campaign_id = $1`, [campaign.id]))[0];
    await until('the contact COMPLETED', async () => (await contact()).status === 'COMPLETED');
    expect(await contact()).toEqual({ status: 'COMPLETED', last_outcome: 'completed' });
    expect(await call(callId)).toEqual({ status: 'ENDED', outcome: 'completed', provider_disposition: 'completed', duration_ms: 125_000 });
    expect(await debits()).toEqual([expect.objectContaining({ amount_minor: String(3 * TARIFF_VOICE_MINUTE_MINOR) })]);
    const result = async () => (await t.dataSource.query(`SELECT envelope FROM lead_results WHERE campaign_id = $1`, [campaign.id]))[0]?.envelope;
    await until('the lead result', async () => Boolean(await result()));
    const envelope = JSON.stringify(await result());
    expect(envelope).toContain(`"id":"${callId}"`); // its finalCall is the Twilio call
    expect(envelope).toContain('"outcome":"completed"');
    expect(envelope).toContain('"durationMs":125000');
  });

  it('a campaign attempt Twilio keeps failing (5xx after the retries) ends as a carrier failure with disposition provider_error, unbilled', async () => {
    const campaign = await createCampaign(t, ws.key, { source: 'API', agentId, timezone: 'UTC', dailyWindowStart: '00:00', dailyWindowEnd: '00:00', recipientHours: 'off', retryCount: 0 });
    expect((await t.http.post(`/campaigns/${campaign.id}/phone-numbers`).set(bearer(ws.key)).send({ phoneNumberId: numberId })).status).toBe(200);
    await startCampaign(t, ws, campaign.id);
    const fail = { status: 500, body: { ...twilioFixtures.errors.serviceUnavailable, status: 500 } };
    stub.script.push(fail, fail, fail);
    const lead = await t.http.post(`/v1/campaigns/${campaign.id}/leads`).set(bearer(ws.key)).send({ idempotencyKey: freshKey(), phone: '+14155550172', name: 'Lee' });
    expect(lead.status).toBeLessThan(300);

    const rows = async () => t.dataSource.query(`SELECT status, outcome, provider_disposition FROM calls WHERE campaign_id = $1`, [campaign.id]);
    await until('the attempt failed', async () => (await rows()).some((c: { status: string }) => c.status === 'FAILED'));
    expect(await rows()).toEqual([{ status: 'FAILED', outcome: 'carrier_failure', provider_disposition: 'provider_error' }]);
    expect(creates()).toHaveLength(3);
    expect(await debits()).toEqual([]);
  });

  it('a campaign call whose callbacks never arrive is settled by the poll, from Twilio\'s record (GET Calls/{CallSid}.json)', async () => {
    const campaign = await createCampaign(t, ws.key, { source: 'API', agentId, timezone: 'UTC', dailyWindowStart: '00:00', dailyWindowEnd: '00:00', recipientHours: 'off' });
    expect((await t.http.post(`/campaigns/${campaign.id}/phone-numbers`).set(bearer(ws.key)).send({ phoneNumberId: numberId })).status).toBe(200);
    await startCampaign(t, ws, campaign.id);
    const to = '+14155550173';
    expect((await t.http.post(`/v1/campaigns/${campaign.id}/leads`).set(bearer(ws.key)).send({ idempotencyKey: freshKey(), phone: to, name: 'Kim' })).status).toBeLessThan(300);
    await until('the campaign dialled Twilio', async () => creates().length === 1);
    const placed = stub.callTo(to);
    const callId = new URL(placed.params.get('StatusCallback')!).searchParams.get('callId')!;
    await until('a poll of the live call', async () => stub.to('GET', new RegExp(`/Calls/${placed.sid}\\.json$`)).length > 0);
    expect((await call(callId)).status).not.toBe('ENDED'); // Twilio still says queued: the poll waits

    // The call ends at Twilio; its callbacks are lost (never sent): only Twilio's record knows.
    stub.callback(placed, 'completed', { CallDuration: '42', AnsweredBy: 'human' });
    await until('settled by the poll', async () => (await call(callId)).status === 'ENDED');
    expect(await call(callId)).toEqual({ status: 'ENDED', outcome: 'completed', provider_disposition: 'completed', duration_ms: 42_000 });
    expect(await debits()).toEqual([expect.objectContaining({ amount_minor: String(TARIFF_VOICE_MINUTE_MINOR) })]);
  });
});
