import { WalletBalance } from '@outreach/billing';
import { PhoneNumberAdministration, sandboxScript } from '@outreach/telephony';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { credit, expectError } from '../campaigns/campaign-helpers';
import { agentBody, createActiveAgent } from '../support/agent-fixtures';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { countCalls, ledger } from './call-fixtures';
import { waitFor } from '../support/tcp-proxy';

/*
 * POST /calls/test: billed test calls, answered once the provider accepted them, with Idempotency-Key semantics (decisions.md 21.1, 22.4,
 * §13: on this route a reused key answers 409). Every refusal is checked with its status and
 * code, and shown to change nothing (no call row, no ledger row).
 */
const SANDBOX_FROM = '+14155550100';
const TARIFF_VOICE_MINUTE_MINOR = 10; // config default

describe('POST /calls/test', () => {
  let t: TestApp;
  let ws: Seeded;
  let agentId: string;
  let numberId: string;
  let numberE164: string;
  let keyNo = 0;

  beforeAll(async () => {
    process.env.SANDBOX_FROM_NUMBER = SANDBOX_FROM;
    try {
      t = await TestApp.create();
    } finally {
      delete process.env.SANDBOX_FROM_NUMBER;
    }
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
    await credit(t, ws.workspaceId, 10_000);
    agentId = (await createActiveAgent(t, ws.key)).id;
    numberE164 = '+14155550142';
    numberId = (await t.get(PhoneNumberAdministration).add({ workspaceId: ws.workspaceId, e164: numberE164 })).id;
  });

  const freshKey = () => `test-call-${++keyNo}-${Math.random().toString(36).slice(2, 8)}`;
  const post = (body: Record<string, unknown>, idempotencyKey: string | null = freshKey(), key = ws.key) => {
    const req = t.http.post('/calls/test').set(bearer(key));
    if (idempotencyKey !== null) req.set('Idempotency-Key', idempotencyKey);
    return req.send(body);
  };
  const balance = async () => (await t.get(WalletBalance).get(ws.workspaceId)).balanceMinor;
  /** The call once the provider's ended event reached it (GET /calls/{id}). */
  async function ended(id: string): Promise<Record<string, unknown>> {
    const body = await waitFor(`call ${id} to end`, async () => {
      const read = await t.http.get(`/calls/${id}`).set(bearer(ws.key));
      return read.body.status === 'ENDED' || read.body.status === 'FAILED' ? (read.body as Record<string, unknown>) : null;
    }, 10_000, 25);
    return body!;
  }
  const debits = async () => (await ledger(t, ws.workspaceId)).filter((e) => e.kind === 'debit');

  /** A refusal changed nothing: no call, no debit, the same balance. */
  async function expectNothingChanged(): Promise<void> {
    expect(await countCalls(t)).toBe(0);
    expect(await debits()).toEqual([]);
    expect(await balance()).toBe(10_000);
  }

  it('places the call, answers 201 with the call once the provider accepted it; its ending is recorded and billed per started minute when it ends', async () => {
    const to = '+14155550107'; // last digit 7: answered and completed
    const res = await post({ agentId, toNumber: to, fromPhoneNumberId: numberId, variables: { contact_name: 'Dana' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'test', outcome: null, durationMs: null, toNumber: to });
    // Accepted and still live: DIALING, or RINGING / IN_PROGRESS when the provider's first events
    // arrived before the response was read (the sandbox rings within milliseconds).
    expect(['DIALING', 'RINGING', 'IN_PROGRESS']).toContain(res.body.status);
    const script = sandboxScript(to);
    const read = await ended(res.body.id);
    expect(read).toMatchObject({
      campaignId: null,
      contactId: null,
      agentId,
      fromNumber: numberE164,
      toNumber: to,
      kind: 'test',
      status: 'ENDED',
      outcome: 'completed',
      attemptNumber: 1,
      durationMs: script.durationMs,
      transcript: script.transcript,
      providerAnalysis: null, // the sandbox has no analysis of its own
      analysisStatus: 'PENDING',
      metricOverrides: {},
    });

    const cost = Math.ceil(script.durationMs / 60_000) * TARIFF_VOICE_MINUTE_MINOR;
    expect(await debits()).toEqual([
      expect.objectContaining({ debit_kind: 'test_call', reference: res.body.id, amount_minor: String(cost) }),
    ]);
    expect(await balance()).toBe(10_000 - cost);

    // The analysis job is in the outbox, committed with the ending.
    const jobs = await t.dataSource.query(`SELECT queue, name, payload FROM outbox WHERE queue = 'calls'`);
    expect(jobs).toEqual([{ queue: 'calls', name: 'analyse', payload: { callId: res.body.id } }]);
  });

  it('normalises toNumber to E.164; without fromPhoneNumberId the caller id is SANDBOX_FROM_NUMBER', async () => {
    const res = await post({ agentId, toNumber: '0044 20 7946 0958' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ toNumber: '+442079460958', fromNumber: SANDBOX_FROM });
    expect(await ended(res.body.id)).toMatchObject({ outcome: 'completed' });
  });

  it('an unanswered call (no answer, busy, carrier failure) is recorded but not billed, and has nothing to analyse', async () => {
    const noAnswer = await post({ agentId, toNumber: '+14155550110', fromPhoneNumberId: numberId });
    expect(noAnswer.status).toBe(201);
    expect(await ended(noAnswer.body.id)).toMatchObject({ status: 'ENDED', outcome: 'no_answer', durationMs: 0, transcript: null, analysisStatus: 'SKIPPED' });
    const failed = await post({ agentId, toNumber: '+14155550113', fromPhoneNumberId: numberId });
    expect(await ended(failed.body.id)).toMatchObject({ status: 'FAILED', outcome: 'carrier_failure' });
    expect(await countCalls(t)).toBe(2);
    expect(await debits()).toEqual([]);
    expect(await balance()).toBe(10_000);
    expect(await t.dataSource.query(`SELECT 1 FROM outbox WHERE queue = 'calls'`)).toEqual([]);
  });

  it('same key + same body → the same call replayed (no second call, no second debit)', async () => {
    const key = freshKey();
    const body = { agentId, toNumber: '+14155550108', fromPhoneNumberId: numberId };
    const first = await post(body, key);
    expect(first.status).toBe(201);
    const again = await post({ fromPhoneNumberId: numberId, toNumber: '+14155550108', agentId }, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    await ended(first.body.id);
    expect(await countCalls(t)).toBe(1);
    expect(await debits()).toHaveLength(1);
  });

  it('same key + a different body → 409 idempotency_key_reused, nothing placed', async () => {
    const key = freshKey();
    const first = await post({ agentId, toNumber: '+14155550108', fromPhoneNumberId: numberId }, key);
    expect(first.status).toBe(201);
    await ended(first.body.id);
    const balanceAfterFirst = await balance();
    expectError(await post({ agentId, toNumber: '+14155550109', fromPhoneNumberId: numberId }, key), 409, 'idempotency_key_reused');
    expect(await countCalls(t)).toBe(1);
    expect(await debits()).toHaveLength(1);
    expect(await balance()).toBe(balanceAfterFirst);
  });

  it('a key stored on a call stays used after its idempotency record expired → 409 idempotency_key_reused', async () => {
    const key = freshKey();
    const first = await post({ agentId, toNumber: '+14155550108', fromPhoneNumberId: numberId }, key);
    expect(first.status).toBe(201);
    await ended(first.body.id); // its debit is written with its ending
    await t.dataSource.query(`DELETE FROM idempotency_keys`); // as if the 24 h had passed
    expectError(await post({ agentId, toNumber: '+14155550108', fromPhoneNumberId: numberId }, key), 409, 'idempotency_key_reused');
    expect(await countCalls(t)).toBe(1);
    expect(await debits()).toHaveLength(1);
  });

  it('50 concurrent requests with one key → exactly one call and one debit; the others replay it or get 409 idempotency_in_progress + Retry-After: 1', async () => {
    const key = freshKey();
    const body = { agentId, toNumber: '+14155550106', fromPhoneNumberId: numberId };
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(body, key)));

    expect(await countCalls(t)).toBe(1);
    const [{ id }] = await t.dataSource.query(`SELECT id FROM calls`);
    await ended(id); // its debit is written with its ending
    expect(await debits()).toHaveLength(1);
    for (const res of answers) {
      if (res.status === 201) {
        expect(res.body.id).toBe(id);
      } else {
        expectError(res, 409, 'idempotency_in_progress');
        expect(res.headers['retry-after']).toBe('1');
      }
    }
    expect(answers.filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(1);
    // Once settled, a retry replays the one call.
    const later = await post(body, key);
    expect({ status: later.status, id: later.body.id }).toEqual({ status: 201, id });
  });

  it('400 idempotency_key_required without the header; 400 idempotency_key_invalid for a bad one', async () => {
    expectError(await post({ agentId, toNumber: '+14155550108', fromPhoneNumberId: numberId }, null), 400, 'idempotency_key_required');
    expectError(await post({ agentId, toNumber: '+14155550108', fromPhoneNumberId: numberId }, 'k'.repeat(201)), 400, 'idempotency_key_invalid');
    await expectNothingChanged();
  });

  it('400 invalid_body for a malformed body', async () => {
    for (const body of [
      {},
      { toNumber: '+14155550108' },
      { agentId, toNumber: 14155550108 },
      { agentId, toNumber: '+14155550108', extra: true },
      { agentId, toNumber: '+14155550108', variables: { 'bad name': 'x' } },
      { agentId, toNumber: '+14155550108', variables: { name: 5 } },
      { agentId, toNumber: '+14155550108', variables: ['x'] },
      { agentId, toNumber: '+14155550108', fromPhoneNumberId: '' },
    ]) {
      const res = await post(body);
      expectError(res, 400, 'invalid_body');
      expect(res.body.issues.length).toBeGreaterThan(0);
    }
    await expectNothingChanged();
  });

  it('400 invalid_phone when toNumber is not a valid number', async () => {
    for (const toNumber of ['12345', 'not a number', '+1415555', '4155550108']) {
      expectError(await post({ agentId, toNumber, fromPhoneNumberId: numberId }), 400, 'invalid_phone');
    }
    await expectNothingChanged();
  });

  it('404 agent_not_found for an unknown, malformed or another workspace\'s agent', async () => {
    const other = await t.seed();
    const theirAgent = await createActiveAgent(t, other.key);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', theirAgent.id]) {
      expectError(await post({ agentId: id, toNumber: '+14155550108', fromPhoneNumberId: numberId }), 404, 'agent_not_found');
    }
    await expectNothingChanged();
  });

  it('400 agent_archived; 409 agent_not_provisioned for an agent still PROVISIONING', async () => {
    expect((await t.http.delete(`/agents/${agentId}`).set(bearer(ws.key))).status).toBe(200);
    expectError(await post({ agentId, toNumber: '+14155550108', fromPhoneNumberId: numberId }), 400, 'agent_archived');

    const provisioning = await t.http.post('/agents').set(bearer(ws.key)).send(agentBody());
    expect(provisioning.body.status).toBe('PROVISIONING');
    expectError(await post({ agentId: provisioning.body.id, toNumber: '+14155550108', fromPhoneNumberId: numberId }), 409, 'agent_not_provisioned');
    await expectNothingChanged();
  });

  it('404 phone_number_not_found when fromPhoneNumberId is not a number of the workspace', async () => {
    const other = await t.seed();
    const theirs = await t.get(PhoneNumberAdministration).add({ workspaceId: other.workspaceId, e164: '+14155550143' });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', theirs.id]) {
      expectError(await post({ agentId, toNumber: '+14155550108', fromPhoneNumberId: id }), 404, 'phone_number_not_found');
    }
    await expectNothingChanged();
  });

  it('409 do_not_call when the destination is on the workspace do-not-call list (in any notation)', async () => {
    expect((await t.http.post('/dnc').set(bearer(ws.key)).send({ phone: '+14155550108' })).status).toBe(201);
    expectError(await post({ agentId, toNumber: '+1 (415) 555-0108', fromPhoneNumberId: numberId }), 409, 'do_not_call');
    await expectNothingChanged();
    // Another workspace's list does not apply.
    const other = await t.seed();
    await credit(t, other.workspaceId);
    const theirAgent = await createActiveAgent(t, other.key);
    const res = await post({ agentId: theirAgent.id, toNumber: '+14155550108' }, freshKey(), other.key);
    expect(res.status).toBe(201);
  });

  it('402 workspace_not_active for an INACTIVE workspace; 402 activity_frozen when activity is frozen', async () => {
    await t.get(WorkspaceAdministration).setStatus(ws.workspaceId, 'INACTIVE');
    expectError(await post({ agentId, toNumber: '+14155550108', fromPhoneNumberId: numberId }), 402, 'workspace_not_active');
    await t.get(WorkspaceAdministration).setStatus(ws.workspaceId, 'ACTIVE');
    await t.get(WorkspaceAdministration).update(ws.workspaceId, { activityFrozen: true });
    expectError(await post({ agentId, toNumber: '+14155550108', fromPhoneNumberId: numberId }), 402, 'activity_frozen');
    await expectNothingChanged();
  });

  it('402 insufficient_credits when the wallet cannot spend (balance ≤ 0, no active trial); an active trial may', async () => {
    const poor = await t.seed();
    const poorAgent = await createActiveAgent(t, poor.key);
    const body = { agentId: poorAgent.id, toNumber: '+14155550108' };
    expectError(await post(body, freshKey(), poor.key), 402, 'insufficient_credits');
    expect(await countCalls(t, poor.workspaceId)).toBe(0);

    await t.get(WorkspaceAdministration).update(poor.workspaceId, { trialUntil: new Date(Date.now() + 86_400_000) });
    const res = await post(body, freshKey(), poor.key);
    expect(res.status).toBe(201);
    expect(await countCalls(t, poor.workspaceId)).toBe(1);
  });

  it('scope calls.edit is required (403 forbidden naming it)', async () => {
    const { key } = await t.addKey(ws.workspaceId, { scopes: ['calls.view', 'agents.edit'] });
    const res = await post({ agentId, toNumber: '+14155550108', fromPhoneNumberId: numberId }, freshKey(), key);
    expectError(res, 403, 'forbidden');
    expect(res.body.requiredPermission).toBe('calls.edit');
    await expectNothingChanged();
  });
});

describe('POST /calls/test without SANDBOX_FROM_NUMBER', () => {
  let t: TestApp;

  beforeAll(async () => {
    delete process.env.SANDBOX_FROM_NUMBER;
    t = await TestApp.create();
  });
  afterAll(() => t?.close());

  it('no fromPhoneNumberId and no sandbox number configured → 500 sandbox_from_number_not_configured (documented); the key is released', async () => {
    await t.reset();
    const ws = await t.seed();
    await credit(t, ws.workspaceId);
    const { id: agentId } = await createActiveAgent(t, ws.key);
    const send = (body: Record<string, unknown>) => t.http.post('/calls/test').set(bearer(ws.key)).set('Idempotency-Key', 'k-1').send(body);

    const res = await send({ agentId, toNumber: '+14155550108' });
    expectError(res, 500, 'sandbox_from_number_not_configured');
    expect(JSON.stringify(res.body)).not.toMatch(/\n\s+at /);
    expect(await countCalls(t)).toBe(0);
    expect((await ledger(t, ws.workspaceId)).filter((e) => e.kind === 'debit')).toEqual([]);

    // A 5xx releases the key: the client retries with the same key (and a number) and it runs.
    const number = await t.get(PhoneNumberAdministration).add({ workspaceId: ws.workspaceId, e164: '+14155550144' });
    const retry = await send({ agentId, toNumber: '+14155550108', fromPhoneNumberId: number.id });
    expect(retry.status).toBe(201);
  });
});
