import { randomUUID } from 'node:crypto';
import { PhoneNumberAdministration, sandboxInboundScript, signSandboxIncoming } from '@outreach/telephony';
import { createCampaign, credit, expectError, randomE164 } from '../campaigns/campaign-helpers';
import { startWorker, waitFor } from '../engine/engine-harness';
import { createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { WorkerApp } from '../support/worker-app';
import { ledger } from './call-fixtures';
import { runCli } from '../support/cli-process';

/*
 * Inbound calls through the sandbox's signed webhook (decisions.md 36.3-36.5): the number's RUNNING
 * INBOUND campaign takes each call — the caller becomes its contact (deduplicated by phone), the Call
 * is recorded, analysed and billed like an outbound one, receivedCalls counts it, and the lead result
 * is written and delivered where the workspace has API results. A number without a live campaign
 * declines the call: recorded, not billed.
 */
const SECRET = 'sandbox-voice-webhook-secret'; // SANDBOX_VOICE_WEBHOOK_SECRET's default

jest.setTimeout(180_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely, field by field
type Loose = Record<string, any>;

describe('inbound calls (sandbox webhook)', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let receiver: WebhookReceiver;
  let ws: Seeded;

  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true'; // the receiver listens on 127.0.0.1
    try {
      t = await TestApp.create();
      worker = await startWorker();
    } finally {
      delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    }
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    receiver.clear();
    receiver.respondWith(200);
    await t.reset();
    ws = await t.seed({ features: ['api_results', 'inbound'] });
    await credit(t, ws.workspaceId, 100_000);
  });

  const api = (key = ws.key) => ({
    post: (path: string, body: object = {}) => t.http.post(path).set(bearer(key)).send(body),
    put: (path: string, body: object) => t.http.put(path).set(bearer(key)).send(body),
    get: (path: string) => t.http.get(path).set(bearer(key)),
  });

  /** A workspace number that can receive calls, assigned to `agentId` over HTTP. */
  async function inboundNumber(agentId: string | null, options: { inbound?: boolean; e164?: string } = {}): Promise<{ id: string; e164: string }> {
    const number = await t.get(PhoneNumberAdministration).add({ workspaceId: ws.workspaceId, e164: options.e164 ?? randomE164(), inbound: options.inbound ?? true });
    if (agentId) {
      const res = await api().put(`/phone-numbers/${number.id}/inbound-agent`, { agentId });
      expect(res.status).toBe(200);
    }
    return { id: number.id, e164: number.e164 };
  }

  /** A RUNNING INBOUND campaign whose agent answers on one number. */
  async function liveInbound(): Promise<{ campaign: Loose; number: { id: string; e164: string }; agentId: string }> {
    const agent = await createActiveAgent(t, ws.key, { agentType: 'INBOUND' });
    const number = await inboundNumber(agent.id);
    // A metric to evaluate: without one (and without extraction keys) a call has nothing to analyse (SKIPPED).
    const campaign = await createCampaign(t, ws.key, {
      source: 'INBOUND',
      agentId: agent.id,
      evaluationMetrics: [{ key: 'wants_offer', label: 'Wants the offer', allowedValues: ['yes', 'no'], prompt: 'Does the caller want the offer?' }],
    });
    const started = await api().post(`/campaigns/${campaign.id}/start`);
    expect(started.status).toBe(200);
    return { campaign: started.body, number, agentId: agent.id };
  }

  const offer = (to: string, from: string, options: { eventId?: string; secret?: string } = {}) => {
    const providerCallId = `sbx_in_${randomUUID()}`;
    const signed = signSandboxIncoming(options.secret ?? SECRET, { eventId: options.eventId ?? `${providerCallId}:incoming`, providerCallId, from, to, at: new Date() }, new Date());
    return t.http.post('/webhooks/voice/sandbox').set(signed.headers).send(signed.body);
  };

  const calls = (campaignId: string): Promise<Loose[]> =>
    t.dataSource.query(`SELECT id, kind, status, outcome, from_number, to_number, contact_id, analysis_status, duration_ms FROM calls WHERE campaign_id = $1 ORDER BY created_at`, [campaignId]);
  const contacts = (campaignId: string): Promise<Loose[]> =>
    t.dataSource.query(`SELECT id, phone, status, attempts FROM campaign_contacts WHERE campaign_id = $1 ORDER BY phone`, [campaignId]);
  const debits = async () => (await ledger(t, ws.workspaceId)).filter((e) => e.kind === 'debit');
  const results = (campaignId: string): Promise<Loose[]> =>
    t.dataSource.query(`SELECT id, lead_id, envelope FROM lead_results WHERE campaign_id = $1`, [campaignId]);

  it('30 inbound calls into a live INBOUND campaign: 30 calls, receivedCalls 30, analysed, billed, results delivered', async () => {
    const { campaign, number } = await liveInbound();
    const hook = await api().post('/result-webhooks', { url: receiver.url() });
    expect(hook.status).toBe(201);
    // Callers ending 4 ask for a person (transferred); the others complete their call.
    const callers = Array.from({ length: 30 }, (_, i) => `+1415${String(300 + i)}${String(1000 + i * 7).slice(0, 3)}${i % 10}`);

    const answers = await Promise.all(callers.map((from) => offer(number.e164, from)));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ received: 1, inbound: { decision: 'taken', campaignId: campaign.id, callId: expect.any(String) } });
    }

    const ended = await waitFor('30 calls ended and analysed', () => calls(campaign.id), (rows) => rows.length === 30 && rows.every((r) => r.status === 'ENDED' && r.analysis_status === 'DONE'), 90_000);
    expect(new Set(ended.map((c) => c.from_number))).toEqual(new Set(callers));
    expect(ended.every((c) => c.kind === 'inbound' && c.to_number === number.e164)).toBe(true);
    for (const c of ended) {
      const script = sandboxInboundScript(c.from_number, 600);
      expect({ outcome: c.outcome, duration_ms: c.duration_ms }).toEqual({ outcome: script.outcome, duration_ms: script.durationMs });
    }
    const people = await contacts(campaign.id);
    expect(people.map((c) => c.phone)).toEqual([...callers].sort());
    expect(people.every((c) => c.status === 'COMPLETED' && c.attempts === 1)).toBe(true);

    const read = await api().get(`/v1/campaigns/${campaign.id}`);
    expect(read.body).toMatchObject({ status: 'RUNNING', receivedCalls: 30, contactCount: 30 });
    expect((await debits()).length).toBe(30);

    const written = await waitFor('30 results', () => results(campaign.id), (rows) => rows.length === 30, 60_000);
    expect(new Set(written.map((r) => r.envelope.data.lead.phone))).toEqual(new Set(callers));
    expect(written.every((r) => r.envelope.data.status === 'completed' && r.envelope.data.idempotencyKey === `inbound:${r.envelope.data.lead.phone}`)).toBe(true);
    const listed = await api().get(`/v1/results?campaignId=${campaign.id}&limit=100`);
    expect(listed.body.items).toHaveLength(30);
    await waitFor('30 deliveries', async () => receiver.received.length, (n) => n >= 30, 60_000);
    expect(new Set(receiver.received.map((w) => (JSON.parse(w.body) as Loose).data.lead.phone))).toEqual(new Set(callers));
  });

  it('a caller who calls again is the same contact; an offer delivered twice is one call', async () => {
    const { campaign, number } = await liveInbound();
    const caller = '+14155550187';
    const first = await offer(number.e164, caller, { eventId: 'offer-1' });
    expect((await offer(number.e164, caller, { eventId: 'offer-1' })).body.inbound).toEqual(first.body.inbound); // redelivered
    await waitFor('first call settled', () => contacts(campaign.id), (rows) => rows[0]?.status === 'COMPLETED');
    expect((await offer(number.e164, caller, { eventId: 'offer-2' })).status).toBe(200);

    await waitFor('second call settled', () => contacts(campaign.id), (rows) => rows[0]?.status === 'COMPLETED' && rows[0]?.attempts === 2);
    expect(await contacts(campaign.id)).toEqual([expect.objectContaining({ phone: caller, attempts: 2 })]);
    expect((await calls(campaign.id)).map((c) => c.contact_id)).toEqual([expect.any(String), expect.any(String)]);
    expect((await api().get(`/v1/campaigns/${campaign.id}`)).body.receivedCalls).toBe(2);
    // One result per lead: the caller's first final state.
    await waitFor('one result', () => results(campaign.id), (rows) => rows.length === 1);
  });

  it('a number without a live campaign declines the call politely: recorded, not billed, no contact', async () => {
    const agent = await createActiveAgent(t, ws.key, { agentType: 'INBOUND' });
    const number = await inboundNumber(agent.id);
    const draft = await createCampaign(t, ws.key, { source: 'INBOUND', agentId: agent.id, phoneNumberId: number.id }); // never started

    const res = await offer(number.e164, '+14155550196');
    expect(res.status).toBe(200);
    expect(res.body.inbound).toEqual({ callId: expect.any(String), decision: 'declined', campaignId: null });
    const [call] = await t.dataSource.query(`SELECT kind, status, outcome, provider_disposition, campaign_id, duration_ms FROM calls WHERE id = $1`, [res.body.inbound.callId]);
    expect(call).toEqual({ kind: 'inbound', status: 'ENDED', outcome: 'no_answer', provider_disposition: 'declined_no_live_campaign', campaign_id: null, duration_ms: 0 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await debits()).toHaveLength(0);
    expect(await contacts(draft.id)).toHaveLength(0);
    expect((await api().get(`/v1/campaigns/${draft.id}`)).body.receivedCalls).toBe(0);
  });

  it('a bad signature → 401 unauthorized, nothing recorded', async () => {
    const { campaign, number } = await liveInbound();
    expectError(await offer(number.e164, '+14155550177', { secret: 'not-the-secret' }), 401, 'unauthorized');
    await new Promise((r) => setTimeout(r, 200));
    expect(await calls(campaign.id)).toHaveLength(0);
    expect(await contacts(campaign.id)).toHaveLength(0);
  });

  it('without the api_results feature the calls settle and no result is written', async () => {
    ws = await t.seed({ features: ['inbound'] });
    await credit(t, ws.workspaceId, 10_000);
    const { campaign, number } = await liveInbound();
    await offer(number.e164, '+14155550165');
    await waitFor('call settled', () => contacts(campaign.id), (rows) => rows[0]?.status === 'COMPLETED');
    await new Promise((r) => setTimeout(r, 1000));
    expect(await results(campaign.id)).toHaveLength(0);
    expect(await debits()).toHaveLength(1);
  });

  it('operator CLI call:simulate-inbound drives the same path (the running worker plays the call)', async () => {
    const { campaign, number } = await liveInbound();
    const run = await runCli(['call:simulate-inbound', '--number', number.e164, '--from', '+14155550158'], { keepLogLevel: false });
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({ received: 1, inbound: { callId: expect.any(String), decision: 'taken', campaignId: campaign.id } });
    await waitFor('call settled', () => contacts(campaign.id), (rows) => rows[0]?.status === 'COMPLETED');
    expect((await api().get(`/v1/campaigns/${campaign.id}`)).body.receivedCalls).toBe(1);
    const bad = await runCli(['call:simulate-inbound', '--number', number.e164, '--from', 'nobody'], { keepLogLevel: false });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--from must be an E\.164 number/);
  });
});
