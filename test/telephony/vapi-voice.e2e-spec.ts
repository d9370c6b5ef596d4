import { AddressInfo } from 'node:net';
import { PhoneNumberAdministration, VoiceProvider } from '@outreach/telephony';
import { credit, expectError } from '../campaigns/campaign-helpers';
import { startWorker } from '../engine/engine-harness';
import { countCalls, ledger } from '../calls/call-fixtures';
import { agentBody } from '../support/agent-fixtures';
import { waitFor } from '../support/tcp-proxy';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { VapiStub, vapiFixtures } from '../support/voice-provider-stubs';
import { WorkerApp } from '../support/worker-app';

/*
 * Vapi as a workspace's carrier (decisions.md 27.2, 27.4), end to end against a local stub of its
 * REST API: agents become assistants from their config, numbers are imported, POST /calls/test
 * places the call with the assistant and number ids, and the stub's server messages (x-vapi-secret)
 * to POST /webhooks/voice/vapi end it with Vapi's outcome, transcript and debit. `provisioned`,
 * `agent_not_provisioned` and `phone_number_not_synced` come from that flow.
 */
const PUBLIC_BASE_URL = 'https://outreach.example.test';
const SECRET = 'vapi-server-secret-for-tests';
const TARIFF_VOICE_MINUTE_MINOR = 10;
const FROM = '+14155550152';

jest.setTimeout(120_000);

describe('Vapi voice adapter (stub)', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let stub: VapiStub;
  let local: string;
  let ws: Seeded;
  let numberId: string;
  let keyNo = 0;

  beforeAll(async () => {
    stub = await new VapiStub().start();
    process.env.PUBLIC_BASE_URL = PUBLIC_BASE_URL;
    try {
      t = await TestApp.create();
      worker = await startWorker();
    } finally {
      delete process.env.PUBLIC_BASE_URL;
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
    ws = await t.seed();
    await credit(t, ws.workspaceId, 10_000);
    const admin = t.get(PhoneNumberAdministration);
    await admin.configureCarrier({ workspaceId: ws.workspaceId, carrier: 'vapi', adapter: 'vapi', baseUrl: stub.baseUrl, credentials: { apiKey: stub.apiKey, serverSecret: SECRET } });
    numberId = (await admin.add({ workspaceId: ws.workspaceId, e164: FROM, carrier: 'vapi' })).id;
  });

  const freshKey = () => `vapi-${++keyNo}-${Math.random().toString(36).slice(2, 8)}`;
  const testCall = (agentId: string, toNumber: string, key = freshKey()) =>
    t.http.post('/calls/test').set(bearer(ws.key)).set('Idempotency-Key', key).send({ agentId, toNumber, fromPhoneNumberId: numberId });
  const call = async (id: string) =>
    (await t.dataSource.query(`SELECT status, outcome, provider_disposition, duration_ms, transcript FROM calls WHERE id = $1`, [id]))[0] as Record<string, unknown>;
  const until = (what: string, check: () => Promise<boolean>) => waitFor(what, check, 30_000, 25);
  const debits = async () => (await ledger(t, ws.workspaceId)).filter((e) => e.kind === 'debit');
  const outboxRows = async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox`))[0].n as number;
  /** An agent made over HTTP and provisioned by the worker alone (an in-process run beside it could make a second assistant). */
  const activeAgent = async (overrides: Record<string, unknown> = {}): Promise<{ id: string }> => {
    const created = await t.http.post('/agents').set(bearer(ws.key)).send(agentBody(overrides));
    expect(created.status).toBe(201);
    await until(`agent ${created.body.id} ACTIVE`, async () => (await t.http.get(`/agents/${created.body.id}`).set(bearer(ws.key))).body.status === 'ACTIVE');
    return { id: created.body.id };
  };
  const sync = () => t.get(PhoneNumberAdministration).syncNumber({ workspaceId: ws.workspaceId, numberId });
  const report = (endedReason: string, durationMs = 75_000) => ({
    ...vapiFixtures.endOfCallReport.message,
    endedReason,
    durationMs,
    startedAt: new Date(Date.now() - durationMs).toISOString(),
    endedAt: new Date().toISOString(),
  });

  it('an agent of a workspace with a Vapi carrier is provisioned as an assistant from its config (prompt, greeting, voice, transfer, voicemail, end call, custom functions, server)', async () => {
    const parameters = { type: 'object', properties: { date: { type: 'string' } }, required: ['date'] };
    const fn = await t.http
      .post('/functions')
      .set(bearer(ws.key))
      .send({ name: 'check_availability', description: 'Checks free slots', parameters, method: 'POST', url: 'https://crm.example.com/hooks/availability', headers: { Authorization: 'Bearer crm-secret' } });
    expect(fn.status).toBe(201);
    const created = await t.http
      .post('/agents')
      .set(bearer(ws.key))
      .send(
        agentBody({
          name: 'Maya',
          greeting: 'Hi, this is Maya.',
          transferEnabled: true,
          transferNumber: '+14155550199',
          transferMessage: 'Connecting you now.',
          voicemailMessage: 'Sorry we missed you.',
          endCallMessage: 'Goodbye!',
          maxCallDurationSecs: 300,
          abilities: { functionIds: [fn.body.id] },
        }),
      );
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('PROVISIONING');
    await until('ACTIVE (provisioned by the worker)', async () => (await t.http.get(`/agents/${created.body.id}`).set(bearer(ws.key))).body.status === 'ACTIVE');

    const posts = stub.to('POST', /^\/assistant$/);
    expect(posts).toHaveLength(1);
    expect(posts[0].headers.authorization).toBe(`Bearer ${stub.apiKey}`);
    const assistant = JSON.parse(posts[0].body);
    expect(assistant).toMatchObject({
      name: 'Maya',
      firstMessage: 'Hi, this is Maya.',
      model: { provider: 'openai', messages: [{ role: 'system', content: agentBody().prompt }] },
      voice: { provider: 'vapi', voiceId: 'Aria' },
      maxDurationSeconds: 300,
      endCallMessage: 'Goodbye!',
      voicemailMessage: 'Sorry we missed you.',
      voicemailDetection: { provider: 'vapi' },
      server: { url: `${PUBLIC_BASE_URL}/webhooks/voice/vapi`, secret: SECRET },
      serverMessages: ['status-update', 'end-of-call-report'],
      metadata: { agentId: created.body.id, workspaceId: ws.workspaceId },
    });
    expect(assistant.model.tools).toEqual([
      { type: 'transferCall', destinations: [{ type: 'number', number: '+14155550199', message: 'Connecting you now.' }] },
      { type: 'endCall' },
      { type: 'function', function: { name: 'check_availability', description: 'Checks free slots', parameters }, server: { url: 'https://crm.example.com/hooks/availability' } },
    ]);
    expect(posts[0].body).not.toContain('crm-secret'); // the function's sealed headers stay ours (decisions.md 27.4)
    const read = await t.http.get(`/agents/${created.body.id}`).set(bearer(ws.key));
    expect(read.body.status).toBe('ACTIVE');
    expect(JSON.stringify(read.body)).not.toContain(stub.apiKey);
    const [row] = await t.dataSource.query(`SELECT provider_agent_id FROM voice_provider_agents WHERE agent_id = $1`, [created.body.id]);
    expect(stub.assistants.has(row.provider_agent_id)).toBe(true);
  });

  it('an edit of an ACTIVE agent is pushed to its assistant (PATCH /assistant/{id}) by the worker', async () => {
    const agent = await activeAgent();
    const [row] = await t.dataSource.query(`SELECT provider_agent_id FROM voice_provider_agents WHERE agent_id = $1`, [agent.id]);
    const edited = await t.http.patch(`/agents/${agent.id}`).set(bearer(ws.key)).send({ prompt: 'You are a new prompt for {{contact_name}}.', greeting: 'Hello again.' });
    expect(edited.status).toBe(200);
    const edit = () => stub.to('PATCH', /^\/assistant\//).find((r) => r.body.includes('You are a new prompt'));
    await until('the assistant patched with the edit', async () => Boolean(edit()));
    expect(edit()!.path).toBe(`/assistant/${row.provider_agent_id}`);
    expect(JSON.parse(edit()!.body)).toMatchObject({ firstMessage: 'Hello again.', model: { messages: [{ role: 'system', content: 'You are a new prompt for {{contact_name}}.' }] } });
  });

  it('Vapi failing while an agent is provisioned: the worker\'s job fails and is retried, the agent stays PROVISIONING meanwhile (409 agent_not_provisioned), then ACTIVE', async () => {
    const fail = { status: 500, body: vapiFixtures.errors.serverError };
    await sync();
    stub.script.push(fail, fail, fail, fail, fail, fail); // two job runs of three tries each
    const created = await t.http.post('/agents').set(bearer(ws.key)).send(agentBody());
    await until('three tries of the first run', async () => stub.to('POST', /^\/assistant$/).length >= 3);
    expectError(await testCall(created.body.id, '+14155550107'), 409, 'agent_not_provisioned');
    await until('the agent ACTIVE after the retries', async () => (await t.http.get(`/agents/${created.body.id}`).set(bearer(ws.key))).body.status === 'ACTIVE');
    expect(stub.to('POST', /^\/assistant$/)).toHaveLength(7);
    expect(await countCalls(t)).toBe(0);
  });

  it('an ACTIVE agent with no assistant at the workspace\'s Vapi carrier (made before the carrier was) → 409 agent_not_provisioned, nothing recorded', async () => {
    const agent = await activeAgent();
    await sync();
    await t.dataSource.query(`DELETE FROM voice_provider_agents WHERE agent_id = $1`, [agent.id]);
    expectError(await testCall(agent.id, '+14155550107'), 409, 'agent_not_provisioned');
    expect(stub.to('POST', /^\/call$/)).toHaveLength(0);
    expect(await countCalls(t)).toBe(0);
  });

  it('a number not yet imported → 409 phone_number_not_synced; once synced, a test call is placed with the assistant and number ids and its server messages end it with transcript and debit', async () => {
    const agent = await activeAgent();
    expectError(await testCall(agent.id, '+14155550170'), 409, 'phone_number_not_synced');
    expect(stub.to('POST', /^\/call$/)).toHaveLength(0);
    expect(await countCalls(t)).toBe(0);

    const synced = await sync();
    const imported = stub.to('POST', /^\/phone-number$/);
    expect(imported).toHaveLength(1);
    expect(JSON.parse(imported[0].body)).toMatchObject({ number: FROM });
    expect(stub.numbers.has(synced.providerNumberId!)).toBe(true);

    const to = '+14155550170'; // the sandbox would say no_answer: Vapi decides here
    const res = await testCall(agent.id, to);
    expect(res.status).toBe(201);
    const placed = stub.callTo(to);
    const [route] = await t.dataSource.query(`SELECT provider_agent_id FROM voice_provider_agents WHERE agent_id = $1`, [agent.id]);
    expect(JSON.parse(stub.to('POST', /^\/call$/)[0].body)).toMatchObject({
      assistantId: route.provider_agent_id,
      phoneNumberId: synced.providerNumberId,
      customer: { number: to },
      metadata: { callId: res.body.id },
    });

    expect(await stub.send(local, placed, stub.message(placed, { type: 'status-update', status: 'ringing' }), SECRET)).toBe(200);
    await until('RINGING', async () => (await call(res.body.id)).status === 'RINGING');
    expect(await stub.send(local, placed, stub.message(placed, { type: 'status-update', status: 'in-progress' }), SECRET)).toBe(200);
    await until('IN_PROGRESS', async () => (await call(res.body.id)).status === 'IN_PROGRESS');
    expect(await stub.send(local, placed, stub.message(placed, { type: 'transcript', role: 'user', transcript: 'Hi' }), SECRET)).toBe(200);
    expect(await stub.send(local, placed, stub.message(placed, { type: 'status-update', status: 'ended', endedReason: 'customer-ended-call' }), SECRET)).toBe(200);
    expect(await stub.send(local, placed, stub.message(placed, report('customer-ended-call')), SECRET)).toBe(200);
    await until('ENDED', async () => (await call(res.body.id)).status === 'ENDED');

    expect(await call(res.body.id)).toEqual({
      status: 'ENDED',
      outcome: 'completed',
      provider_disposition: 'customer-ended-call',
      duration_ms: 75_000,
      transcript: vapiFixtures.endOfCallReport.message.artifact.transcript,
    });
    expect(await debits()).toEqual([expect.objectContaining({ debit_kind: 'test_call', reference: res.body.id, amount_minor: String(2 * TARIFF_VOICE_MINUTE_MINOR) })]);
    // Vapi's own analysis is kept as it sent it, beside ours (decisions.md 16.28).
    const read = await t.http.get(`/calls/${res.body.id}`).set(bearer(ws.key));
    expect(read.status).toBe(200);
    expect(read.body.providerAnalysis).toEqual(vapiFixtures.endOfCallReport.message.analysis);
    // The poll reads the same ending from GET /call/{id}.
    expect(await t.get(VoiceProvider).lookupCall(res.body.id)).toMatchObject({
      state: 'ended',
      result: { outcome: 'completed', providerCallId: placed.id, providerAnalysis: vapiFixtures.endOfCallReport.message.analysis },
    });
  });

  it('endedReason decides the outcome: no answer, busy, voicemail, forwarded, a provider failure', async () => {
    const agent = await activeAgent();
    await sync();
    const cases: Array<[string, string, string]> = [
      ['+14155550175', 'customer-did-not-answer', 'no_answer'],
      ['+14155550176', 'customer-busy', 'busy'],
      ['+14155550177', 'voicemail', 'voicemail'],
      ['+14155550178', 'assistant-forwarded-call', 'transferred'],
      ['+14155550179', 'twilio-failed-to-connect-call', 'carrier_failure'],
    ];
    const ids: string[] = [];
    for (const [to, reason] of cases) {
      const res = await testCall(agent.id, to);
      expect(res.status).toBe(201);
      ids.push(res.body.id);
      const placed = stub.callTo(to);
      expect(await stub.send(local, placed, stub.message(placed, report(reason, 30_000)), SECRET)).toBe(200);
    }
    for (const id of ids) await until(`call ${id} over`, async () => ['ENDED', 'FAILED'].includes((await call(id)).status as string));
    const outcomes = await Promise.all(ids.map(async (id) => (await call(id)).outcome));
    expect(outcomes).toEqual(cases.map(([, , outcome]) => outcome));
    expect(await debits()).toHaveLength(2); // voicemail and transferred were answered
  });

  it('a wrong or missing x-vapi-secret, or a call that is not ours → 401 unauthorized, nothing stored', async () => {
    const agent = await activeAgent();
    await sync();
    const res = await testCall(agent.id, '+14155550180');
    const placed = stub.callTo('+14155550180');
    const before = await outboxRows();

    expect(await stub.send(local, placed, stub.message(placed, report('customer-ended-call')), 'not-the-secret')).toBe(401);
    const missing = await t.http.post('/webhooks/voice/vapi').set('content-type', 'application/json').send(stub.message(placed, report('customer-ended-call')));
    expectError(missing, 401, 'unauthorized');
    const stranger = { ...placed, id: 'call_not_ours', metadata: { callId: '00000000-0000-4000-8000-000000000000' } };
    expect(await stub.send(local, placed, stub.message(stranger, report('customer-ended-call')), SECRET)).toBe(401);

    expect(await outboxRows()).toBe(before);
    expect(await call(res.body.id)).toMatchObject({ status: 'DIALING', outcome: null });
    expect(await debits()).toEqual([]);
  });

  it('Vapi no longer having our number (404) → 409 phone_number_released_upstream, nor the assistant → 409 agent_not_provisioned; 5xx retried then 502 provider_error with upstreamStatus; nothing recorded', async () => {
    const agent = await activeAgent();
    const synced = await sync();
    stub.numbers.delete(synced.providerNumberId!);
    expectError(await testCall(agent.id, '+14155550185'), 409, 'phone_number_released_upstream');
    // Vapi no longer knowing the agent's assistant (deleted there) → 409 agent_not_provisioned.
    await sync();
    const [row] = await t.dataSource.query(`SELECT provider_agent_id FROM voice_provider_agents WHERE agent_id = $1`, [agent.id]);
    const assistant = stub.assistants.get(row.provider_agent_id)!;
    stub.assistants.delete(row.provider_agent_id);
    expectError(await testCall(agent.id, '+14155550184'), 409, 'agent_not_provisioned');
    stub.assistants.set(row.provider_agent_id, assistant);

    await sync();
    const fail = { status: 502, body: { message: 'Bad Gateway', statusCode: 502 } };
    stub.script.push(fail, fail, fail);
    const refused = await testCall(agent.id, '+14155550186');
    expectError(refused, 502, 'provider_error');
    expect(refused.body.upstreamStatus).toBe(502);
    expect(stub.to('POST', /^\/call$/)).toHaveLength(5);
    expect(await countCalls(t)).toBe(0);
    expect(await debits()).toEqual([]);
  });
});
