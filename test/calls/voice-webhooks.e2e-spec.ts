import { CallLog } from '@outreach/calls';
import { sandboxScript, signSandboxWebhook, VoiceCallEvent } from '@outreach/telephony';
import { credit, expectError } from '../campaigns/campaign-helpers';
import { startWorker } from '../engine/engine-harness';
import { Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { ledger, recordCall } from './call-fixtures';
import { waitFor } from '../support/tcp-proxy';

/*
 * POST /webhooks/voice/{provider} (decisions.md 16.24): the signature is verified before anything is
 * stored (401 unauthorized, nothing written), each event goes through the outbox to the worker,
 * and a call moves only forward: duplicated, reordered and late events change nothing twice.
 */
const SECRET = 'sandbox-voice-webhook-secret'; // SANDBOX_VOICE_WEBHOOK_SECRET's default
const TO = '+14155550107'; // last digit 7: completed

jest.setTimeout(120_000);

describe('voice provider webhooks', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
    worker = await startWorker();
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
    await credit(t, ws.workspaceId, 10_000);
  });

  /** A test call the sandbox accepted (DIALING) whose events the test sends itself. */
  async function acceptedCall(): Promise<string> {
    const callId = await recordCall(t, { workspaceId: ws.workspaceId, to: TO, unfinished: true });
    await t.get(CallLog).progress(callId, 'accepted', { providerCallId: `sbx_call_${callId}` });
    return callId;
  }

  const event = (callId: string, type: 'ringing' | 'answered' | 'ended', eventId = `${callId}:${type}`): VoiceCallEvent => {
    const base = { provider: 'sandbox', eventId, callId, providerCallId: `sbx_call_${callId}`, at: new Date() };
    if (type !== 'ended') return { ...base, type };
    const script = sandboxScript(TO);
    return {
      ...base,
      type,
      result: {
        outcome: 'completed',
        providerDisposition: 'completed',
        providerCallId: base.providerCallId,
        answeredAt: new Date(Date.now() - 1000),
        endedAt: new Date(),
        durationMs: script.durationMs,
        transcript: script.transcript,
        recordingUrl: null,
      },
    };
  };

  const send = (e: VoiceCallEvent, options: { secret?: string; at?: Date; provider?: string; body?: string } = {}) => {
    const signed = signSandboxWebhook(options.secret ?? SECRET, e, options.at ?? new Date());
    return t.http
      .post(`/webhooks/voice/${options.provider ?? 'sandbox'}`)
      .set(signed.headers)
      .send(options.body ?? signed.body);
  };

  const call = async (callId: string) => (await t.dataSource.query(`SELECT status, outcome, duration_ms FROM calls WHERE id = $1`, [callId]))[0];
  const outboxRows = async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox`))[0].n as number;
  const debits = async () => (await ledger(t, ws.workspaceId)).filter((e) => e.kind === 'debit');
  // Events go through the outbox to the worker: generous on a loaded CI machine (30 s).
  const until = (what: string, check: () => Promise<boolean>) => waitFor(what, check, 30_000, 25);

  it('ringing, answered, ended move the call forward; the ending is recorded and billed once', async () => {
    const callId = await acceptedCall();

    const ringing = await send(event(callId, 'ringing'));
    expect(ringing.status).toBe(200);
    expect(ringing.body).toEqual({ received: 1 });
    await until('RINGING', async () => (await call(callId)).status === 'RINGING');
    expect((await send(event(callId, 'answered'))).status).toBe(200);
    await until('IN_PROGRESS', async () => (await call(callId)).status === 'IN_PROGRESS');
    expect((await send(event(callId, 'ended'))).status).toBe(200);
    await until('ENDED', async () => (await call(callId)).status === 'ENDED');

    expect(await call(callId)).toEqual({ status: 'ENDED', outcome: 'completed', duration_ms: sandboxScript(TO).durationMs });
    expect(await debits()).toHaveLength(1);
  });

  it('a redelivered event (same id), another ending of the same call and a late progress event change nothing', async () => {
    const callId = await acceptedCall();
    expect((await send(event(callId, 'ended'))).status).toBe(200);
    await until('ENDED', async () => (await call(callId)).status === 'ENDED');
    const ended = await call(callId);

    expect((await send(event(callId, 'ended'))).status).toBe(200); // the provider retries
    // Provider event ids are unique for good: a fixed one would meet the previous run's job in Redis.
    const anotherId = `another-${callId}`;
    expect((await send(event(callId, 'ended', anotherId))).status).toBe(200);
    expect((await send(event(callId, 'ringing'))).status).toBe(200); // late and out of order
    const applied = async () => (await t.dataSource.query(`SELECT event_id FROM call_events WHERE call_id = $1 ORDER BY event_id`, [callId])).map((r: { event_id: string }) => r.event_id);
    await until('every event applied', async () => (await applied()).length === 3);
    expect(await applied()).toEqual([`${callId}:ended`, `${callId}:ringing`, anotherId].sort());
    await new Promise((r) => setTimeout(r, 200));

    expect(await call(callId)).toEqual(ended);
    expect(await debits()).toHaveLength(1);
  });

  it('a bad or missing signature, a stale timestamp, a body changed after signing → 401 unauthorized, nothing stored', async () => {
    const callId = await acceptedCall();
    const before = await outboxRows();

    expectError(await send(event(callId, 'ended'), { secret: 'not-the-secret' }), 401, 'unauthorized');
    expectError(await send(event(callId, 'ended'), { at: new Date(Date.now() - 10 * 60_000) }), 401, 'unauthorized');
    const signed = signSandboxWebhook(SECRET, event(callId, 'ringing'), new Date());
    expectError(await send(event(callId, 'ended'), { body: signed.body.replace('ringing', 'answered') }), 401, 'unauthorized');
    expectError(await t.http.post('/webhooks/voice/sandbox').send(signed.body).set('content-type', 'application/json'), 401, 'unauthorized');

    expect(await outboxRows()).toBe(before);
    expect(await call(callId)).toMatchObject({ status: 'DIALING', outcome: null });
  });

  it('a provider that sends no webhooks here → 404 not_found', async () => {
    const callId = await acceptedCall();
    expectError(await send(event(callId, 'ended'), { provider: 'nobody' }), 404, 'not_found');
  });
});
