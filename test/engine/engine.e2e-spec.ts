// The execution engine end to end (decisions.md 16.2, 16.5, 7.8): API-seeded campaigns run by the real worker
// module (outbox relay, BullMQ processors) on the real Postgres and Redis, with a FixedClock that
// the tests move instead of sleeping; a counting wrapper around the sandbox counts real dials.
process.env.DISPATCH_TICK_MS = '100';
process.env.REAPER_INTERVAL_MS = '3600000'; // the tests run the reaper themselves

import { Tariffs } from '@outreach/billing';
import { attemptJobId, EngineMaintenance, EngineQueue, ExecuteAttempt } from '@outreach/engine';
import { CallLog } from '@outreach/calls';
import { Clock, FixedClock } from '@outreach/platform';
import { sandboxScript } from '@outreach/telephony';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { credit } from '../campaigns/campaign-helpers';
import {
  CountingVoiceProvider,
  dispatcher,
  EngineProbe,
  reaper,
  runnableCampaign,
  sandboxFor,
  sandboxNumber,
  startCampaign,
  startWorker,
  waitFor,
} from './engine-harness';

const MONDAY_10_UTC = new Date('2026-11-23T10:00:00Z');
const MIN = 60_000;

describe('execution engine', () => {
  const clock = new FixedClock(MONDAY_10_UTC);
  const voice = new CountingVoiceProvider(sandboxFor(clock));
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;
  let probe: EngineProbe;
  let kick: ReturnType<typeof dispatcher>;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    worker = await startWorker({ clock, voice });
    probe = new EngineProbe(t);
    kick = dispatcher(worker);
  });
  afterAll(async () => {
    voice.openGate();
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    clock.set(MONDAY_10_UTC);
    voice.reset();
    await t.reset();
    ws = await t.seed();
  });

  /** Waits until nothing is in flight and the contact statuses are exactly `expected`. */
  const statusesBecome = (campaignId: string, expected: Record<string, number>) =>
    waitFor(
      `contact statuses ${JSON.stringify(expected)}`,
      async () => ({ counts: await probe.statusCounts(campaignId), settled: await probe.settled(campaignId) }),
      (s) => s.settled && JSON.stringify(sortKeys(s.counts)) === JSON.stringify(sortKeys(expected)),
    );
  const campaignBecomes = (campaignId: string, status: string) =>
    waitFor(`campaign ${status}`, () => probe.campaignStatus(campaignId), (s) => s === status);

  it('runs a campaign of numbers ending 0-9 to COMPLETED: outcomes, retries on the clock, one Call per attempt, ledger = balance change', async () => {
    const phones = Array.from({ length: 10 }, (_, digit) => sandboxNumber(digit, digit));
    const { campaignId } = await runnableCampaign(t, ws, {
      phones,
      creditMinor: 100_000,
      settings: { retryCount: 2, retryDelaysMinutes: [10, 30], cooldownMinutes: 5 },
    });
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 10 });

    // Round 1: 4-9 answered (4 transferred, 5-9 completed) → COMPLETED; 0-3 → retry in 10 min.
    await statusesBecome(campaignId, { COMPLETED: 6, RETRY_SCHEDULED: 4 });
    let contacts = await probe.contacts(campaignId);
    for (const c of contacts.filter((x) => x.status === 'RETRY_SCHEDULED')) {
      expect(c.next_attempt_at).toEqual(new Date(MONDAY_10_UTC.getTime() + 10 * MIN));
      expect(c.attempts).toBe(1);
    }
    expect(voice.total()).toBe(10);

    // One second before the retry is due: nothing is dialled.
    clock.set(new Date(MONDAY_10_UTC.getTime() + 10 * MIN - 1000));
    expect((await kick(campaignId)).claimed).toBe(0);
    expect(voice.total()).toBe(10);

    // Due: the four are dialled again; the next delay is retryDelaysMinutes[1] = 30.
    const round2 = new Date(MONDAY_10_UTC.getTime() + 10 * MIN);
    clock.set(round2);
    await kick(campaignId);
    await waitFor('second attempts', () => probe.contacts(campaignId), (rows) => rows.filter((r) => r.attempts === 2 && r.status === 'RETRY_SCHEDULED').length === 4);
    contacts = await probe.contacts(campaignId);
    for (const c of contacts.filter((x) => x.status === 'RETRY_SCHEDULED')) {
      expect(c.next_attempt_at).toEqual(new Date(round2.getTime() + 30 * MIN));
    }

    // Third and last attempt (retryCount 2): FAILED, and the campaign completes.
    clock.set(new Date(round2.getTime() + 30 * MIN));
    await kick(campaignId);
    await statusesBecome(campaignId, { COMPLETED: 6, FAILED: 4 });
    await campaignBecomes(campaignId, 'COMPLETED');

    contacts = await probe.contacts(campaignId);
    const expectedOutcome = ['no_answer', 'busy', 'voicemail', 'carrier_failure', 'transferred', 'completed', 'completed', 'completed', 'completed', 'completed'];
    const calls = await probe.calls(campaignId);
    for (const [digit, phone] of phones.entries()) {
      const contact = contacts.find((c) => c.phone === phone)!;
      const own = calls.filter((c) => c.to_number === phone);
      const attempts = digit <= 3 ? 3 : 1;
      expect({ phone, status: contact.status, attempts: contact.attempts, calls: own.length, dials: voice.placed.get(phone) }).toEqual({
        phone,
        status: digit <= 3 ? 'FAILED' : 'COMPLETED',
        attempts,
        calls: attempts,
        dials: attempts,
      });
      expect(own.map((c) => c.attempt_number)).toEqual(Array.from({ length: attempts }, (_, i) => i + 1));
      for (const call of own) {
        expect(call.outcome).toBe(expectedOutcome[digit]);
        expect(call.status).toBe(digit === 3 ? 'FAILED' : 'ENDED');
      }
      expect(contact.last_outcome).toBe(expectedOutcome[digit]);
    }

    // Billing: every answered call (voicemail included) per started minute at the default 10 minor.
    const answered = calls.filter((c) => ['voicemail', 'transferred', 'completed'].includes(c.outcome!));
    expect(answered).toHaveLength(3 + 6);
    const expectedDebits = answered.reduce((sum, c) => sum + Math.ceil(c.duration_ms! / MIN) * 10, 0);
    const wallet = await probe.wallet(ws.workspaceId);
    expect(wallet).toEqual({ balance: 100_000 - expectedDebits, credits: 100_000, debits: expectedDebits, debitCount: 9 });

    // The campaign reads COMPLETED over the API too.
    const read = await t.http.get(`/v1/campaigns/${campaignId}`).set(bearer(ws.key));
    expect(read.body.status).toBe('COMPLETED');
  });

  it('attempts running together start, are accepted and settle in groups (decisions.md 16.31, 16.32): one call per contact, each with its own outcome, ledger = balance change', async () => {
    const calls = worker.get(CallLog);
    const spies = {
      startMany: jest.spyOn(calls, 'startMany'),
      progressMany: jest.spyOn(calls, 'progressMany'),
      recordMany: jest.spyOn(calls, 'recordMany'),
    };
    try {
      const phones = Array.from({ length: 40 }, (_, i) => sandboxNumber(i, 4 + (i % 6))); // 4 transferred, 5-9 completed
      const { campaignId } = await runnableCampaign(t, ws, { phones, creditMinor: 1_000_000 });
      await startCampaign(t, ws, campaignId, { reservedConcurrency: 10 });
      await statusesBecome(campaignId, { COMPLETED: 40 });

      // Groups of more than one ran through each grouped statement, on the real Postgres.
      for (const [name, spy] of Object.entries(spies)) {
        expect({ name, grouped: spy.mock.calls.some(([items]) => items.length > 1) }).toEqual({ name, grouped: true });
      }
      const rows = await probe.calls(campaignId);
      const contacts = await probe.contacts(campaignId);
      expect(rows).toHaveLength(40);
      expect(voice.total()).toBe(40);
      for (const phone of phones) {
        const own = rows.filter((c) => c.to_number === phone);
        const contact = contacts.find((c) => c.phone === phone)!;
        expect({ phone, calls: own.length, outcome: own[0]?.outcome, status: own[0]?.status, last: contact.last_outcome }).toEqual({
          phone,
          calls: 1,
          outcome: sandboxScript(phone).outcome,
          status: 'ENDED',
          last: sandboxScript(phone).outcome,
        });
      }
      const [{ started }] = await t.dataSource.query(
        `SELECT count(*)::int AS started FROM contact_timeline_events e JOIN campaign_contacts c ON c.id = e.contact_id WHERE c.campaign_id = $1 AND e.type = 'attempt_started'`,
        [campaignId],
      );
      expect(started).toBe(40);
      const expectedDebits = rows.reduce((sum, c) => sum + Math.ceil(c.duration_ms! / MIN) * 10, 0);
      expect(await probe.wallet(ws.workspaceId)).toEqual({ balance: 1_000_000 - expectedDebits, credits: 1_000_000, debits: expectedDebits, debitCount: 40 });
    } finally {
      for (const spy of Object.values(spies)) spy.mockRestore();
    }
  });

  it('a paused campaign whose only work left is retries resumes (200), and the retries dial at their nextAttemptAt', async () => {
    const busy = sandboxNumber(3, 1);
    const { campaignId } = await runnableCampaign(t, ws, { phones: [busy], settings: { retryCount: 1, retryDelaysMinutes: [10], cooldownMinutes: 5 } });
    await startCampaign(t, ws, campaignId);
    await statusesBecome(campaignId, { RETRY_SCHEDULED: 1 });
    const paused = await t.http.post(`/campaigns/${campaignId}/pause`).set(bearer(ws.key));
    expect([paused.status, paused.body.status]).toEqual([200, 'PAUSED']);

    // Its one contact waits for a retry: that is work left, not "no pending contacts".
    const resumed = await t.http.post(`/campaigns/${campaignId}/resume`).set(bearer(ws.key));
    expect([resumed.status, resumed.body.status, resumed.body.error]).toEqual([200, 'RUNNING', undefined]);

    // Not before its time: a dispatch now dials nothing.
    await kick(campaignId);
    expect(voice.placed.get(busy)).toBe(1);
    clock.advance(10 * MIN);
    await kick(campaignId);
    await statusesBecome(campaignId, { FAILED: 1 });
    expect(voice.placed.get(busy)).toBe(2);
    await campaignBecomes(campaignId, 'COMPLETED');
  });

  it('alternate numbers: a number left unanswered after its retries hands over to the next; the contact records where a person answered', async () => {
    const primary = sandboxNumber(30, 0); // no answer
    const busyAlt = sandboxNumber(31, 1); // busy
    const answers = sandboxNumber(32, 7); // completed
    const { campaignId } = await runnableCampaign(t, ws, { phones: [], settings: { retryCount: 1, retryDelaysMinutes: [10], cooldownMinutes: 5 } });
    const added = await t.http.post(`/campaigns/${campaignId}/contacts`).set(bearer(ws.key)).send([{ phone: primary, altPhones: [busyAlt, answers] }]);
    expect(added.status).toBe(201);
    await startCampaign(t, ws, campaignId);

    // Each number: its first attempt, its retry 10 min later, then the next number after the 5 min cooldown.
    await statusesBecome(campaignId, { RETRY_SCHEDULED: 1 });
    for (const wait of [10, 5, 10, 5]) {
      clock.advance(wait * MIN);
      await kick(campaignId);
      await waitFor('the attempt to settle', () => probe.settled(campaignId), (settled) => settled);
    }
    await statusesBecome(campaignId, { COMPLETED: 1 });

    expect([voice.placed.get(primary), voice.placed.get(busyAlt), voice.placed.get(answers)]).toEqual([2, 2, 1]);
    const calls = await probe.calls(campaignId);
    expect(calls.map((c) => [c.to_number, c.outcome])).toEqual([
      [primary, 'no_answer'],
      [primary, 'no_answer'],
      [busyAlt, 'busy'],
      [busyAlt, 'busy'],
      [answers, 'completed'],
    ]);
    const leads = await t.http.get(`/campaigns/${campaignId}/leads`).set(bearer(ws.key));
    expect(leads.body.items).toEqual([
      expect.objectContaining({ phone: primary, altPhones: [busyAlt, answers], status: 'COMPLETED', attempts: 5, phoneIndex: 2, connectedPhone: answers }),
    ]);
    expect((await probe.wallet(ws.workspaceId)).debitCount).toBe(1); // billed as any answered call
  });

  it('skipRetryOnFirstVoicemail ends a contact on voicemail; other outcomes still retry', async () => {
    const voicemail = sandboxNumber(1, 2);
    const busy = sandboxNumber(2, 1);
    const { campaignId } = await runnableCampaign(t, ws, {
      phones: [voicemail, busy],
      settings: { retryCount: 1, retryDelaysMinutes: [10], cooldownMinutes: 5, skipRetryOnFirstVoicemail: true },
    });
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });
    await statusesBecome(campaignId, { FAILED: 1, RETRY_SCHEDULED: 1 });
    const contacts = await probe.contacts(campaignId);
    expect(contacts.find((c) => c.phone === voicemail)).toMatchObject({ status: 'FAILED', attempts: 1, last_outcome: 'voicemail' });
    expect(contacts.find((c) => c.phone === busy)).toMatchObject({ status: 'RETRY_SCHEDULED', attempts: 1, last_outcome: 'busy' });

    clock.advance(10 * MIN);
    await kick(campaignId);
    await statusesBecome(campaignId, { FAILED: 2 });
    await campaignBecomes(campaignId, 'COMPLETED');
    expect(voice.placed.get(voicemail)).toBe(1);
    expect(voice.placed.get(busy)).toBe(2);
  });

  it('incomplete-call retry: an answered call shorter than incompleteCallSeconds is retried after incompleteRetryDelaysMinutes', async () => {
    // The sandbox's talk time derives from the number: pick one short and one long completed call.
    const candidates = Array.from({ length: 400 }, (_, i) => sandboxNumber(i, 5));
    const short = candidates.find((n) => sandboxScript(n).durationMs < 60_000)!;
    const long = candidates.find((n) => sandboxScript(n).durationMs >= 60_000)!;
    const { campaignId } = await runnableCampaign(t, ws, {
      phones: [short, long],
      settings: {
        retryCount: 0,
        cooldownMinutes: 5,
        incompleteRetryEnabled: true,
        incompleteCallSeconds: 60,
        incompleteRetryMaxAttempts: 1,
        incompleteRetryDelaysMinutes: [15],
      },
    });
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });
    await statusesBecome(campaignId, { COMPLETED: 1, RETRY_SCHEDULED: 1 });
    const retry = (await probe.contacts(campaignId)).find((c) => c.phone === short)!;
    expect(retry).toMatchObject({ status: 'RETRY_SCHEDULED', attempts: 1, last_outcome: 'completed' });
    expect(retry.next_attempt_at).toEqual(new Date(MONDAY_10_UTC.getTime() + 15 * MIN));

    clock.advance(15 * MIN);
    await kick(campaignId);
    // The second call is short again, but the one incomplete retry is used up: COMPLETED.
    await statusesBecome(campaignId, { COMPLETED: 2 });
    await campaignBecomes(campaignId, 'COMPLETED');
    expect(voice.placed.get(short)).toBe(2);
    expect(voice.placed.get(long)).toBe(1);
  });

  it('window and dialDays in the campaign timezone: Sunday and 03:00 UTC (08:30 Kolkata) dial nothing, 03:31 UTC does', async () => {
    clock.set(new Date('2026-11-22T05:00:00Z')); // Sunday 10:30 in Kolkata
    const phones = [sandboxNumber(1, 5), sandboxNumber(2, 6)];
    const { campaignId } = await runnableCampaign(t, ws, {
      phones,
      settings: { timezone: 'Asia/Kolkata', dailyWindowStart: '09:00', dailyWindowEnd: '18:00', dialDays: [1, 2, 3, 4, 5] },
    });
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });
    expect(await kick(campaignId)).toMatchObject({ state: 'outside_window', claimed: 0, nextWakeAt: new Date('2026-11-23T03:30:00Z') });

    clock.set(new Date('2026-11-23T03:00:00Z')); // Monday 08:30 in Kolkata
    expect(await kick(campaignId)).toMatchObject({ state: 'outside_window', claimed: 0, nextWakeAt: new Date('2026-11-23T03:30:00Z') });
    expect(await probe.statusCounts(campaignId)).toEqual({ PENDING: 2 });
    expect(voice.total()).toBe(0);
    expect(await probe.calls(campaignId)).toHaveLength(0);

    clock.set(new Date('2026-11-23T03:31:00Z')); // Monday 09:01 in Kolkata
    await kick(campaignId);
    await statusesBecome(campaignId, { COMPLETED: 2 });
    expect(voice.total()).toBe(2);
    await campaignBecomes(campaignId, 'COMPLETED');
  });

  it('dailyDialCap counts attempts per local day; the next day dials the rest', async () => {
    const phones = Array.from({ length: 5 }, (_, i) => sandboxNumber(i, 7));
    const { campaignId } = await runnableCampaign(t, ws, { phones, settings: { dailyDialCap: 3 } });
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 5 });
    await statusesBecome(campaignId, { COMPLETED: 3, PENDING: 2 });
    expect(await kick(campaignId)).toMatchObject({ state: 'daily_cap_reached', claimed: 0, nextWakeAt: new Date('2026-11-24T00:00:00Z') });
    expect(voice.total()).toBe(3);

    clock.set(new Date('2026-11-24T00:00:00Z'));
    await kick(campaignId);
    await statusesBecome(campaignId, { COMPLETED: 5 });
    await campaignBecomes(campaignId, 'COMPLETED');
    expect(voice.total()).toBe(5);
  });

  it('cooldownMinutes is the least gap between two attempts of a contact, even with a shorter retry delay', async () => {
    const busy = sandboxNumber(3, 1);
    const { campaignId } = await runnableCampaign(t, ws, {
      phones: [busy],
      settings: { retryCount: 1, retryDelaysMinutes: [10], cooldownMinutes: 30 },
    });
    await startCampaign(t, ws, campaignId);
    await statusesBecome(campaignId, { RETRY_SCHEDULED: 1 });
    expect((await probe.contacts(campaignId))[0].next_attempt_at).toEqual(new Date(MONDAY_10_UTC.getTime() + 30 * MIN));

    clock.set(new Date(MONDAY_10_UTC.getTime() + 10 * MIN));
    expect((await kick(campaignId)).claimed).toBe(0);
    clock.set(new Date(MONDAY_10_UTC.getTime() + 29 * MIN));
    expect((await kick(campaignId)).claimed).toBe(0);
    expect(voice.total()).toBe(1);

    clock.set(new Date(MONDAY_10_UTC.getTime() + 30 * MIN));
    await kick(campaignId);
    await statusesBecome(campaignId, { FAILED: 1 });
    expect(voice.placed.get(busy)).toBe(2);
  });

  it('credit exhaustion mid-campaign: CREDIT_EXHAUSTED, in-flight calls finish, no new claims; credit + start resumes to COMPLETED', async () => {
    const phones = Array.from({ length: 6 }, (_, i) => sandboxNumber(i, 5 + (i % 5)));
    const { campaignId } = await runnableCampaign(t, ws, { phones, creditMinor: 10 });
    voice.closeGate();
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });
    await waitFor('two calls in flight', async () => voice.held, (held) => held.length === 2);
    const [first, second] = voice.held;

    // The first call costs ≥ 1 minute = 10 minor: the balance reaches 0 and the campaign stops dialling.
    voice.release(first);
    await campaignBecomes(campaignId, 'CREDIT_EXHAUSTED');
    expect(await kick(campaignId)).toMatchObject({ state: 'not_running', claimed: 0 });
    expect(voice.held).toEqual([second]);

    // The call in flight still finishes (and is billed).
    voice.release(second);
    await statusesBecome(campaignId, { COMPLETED: 2, PENDING: 4 });
    expect(voice.total()).toBe(2);
    const calls = await probe.calls(campaignId);
    expect(calls).toHaveLength(2);
    let wallet = await probe.wallet(ws.workspaceId);
    expect(wallet.balance).toBeLessThanOrEqual(0);
    expect(wallet.credits - wallet.debits).toBe(wallet.balance);
    expect(wallet.debits).toBe(calls.reduce((sum, c) => sum + Math.ceil(c.duration_ms! / MIN) * 10, 0));

    // Top up and start again: it runs to the end.
    voice.openGate();
    await credit(t, ws.workspaceId, 100_000);
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });
    await campaignBecomes(campaignId, 'COMPLETED');
    expect(await probe.statusCounts(campaignId)).toEqual({ COMPLETED: 6 });
    expect(voice.total()).toBe(6);
    wallet = await probe.wallet(ws.workspaceId);
    const allCalls = await probe.calls(campaignId);
    expect(wallet.debits).toBe(allCalls.reduce((sum, c) => sum + Math.ceil(c.duration_ms! / MIN) * 10, 0));
    expect(wallet.credits - wallet.debits).toBe(wallet.balance);
    expect(wallet.debitCount).toBe(6);
  });

  it('do-not-call: listed at claim time or before a retry → DO_NOT_CALL without a call', async () => {
    const listed = sandboxNumber(1, 5);
    const busy = sandboxNumber(2, 1);
    const fine = sandboxNumber(3, 6);
    const { campaignId } = await runnableCampaign(t, ws, {
      phones: [listed, busy, fine],
      settings: { retryCount: 1, retryDelaysMinutes: [10], cooldownMinutes: 5 },
    });
    const add = await t.http.post('/dnc').set(bearer(ws.key)).send({ phone: listed });
    expect(add.status).toBe(201);
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 3 });
    await statusesBecome(campaignId, { DO_NOT_CALL: 1, RETRY_SCHEDULED: 1, COMPLETED: 1 });

    // Listed after its first attempt: the retry does not dial.
    expect((await t.http.post('/dnc').set(bearer(ws.key)).send({ phone: busy })).status).toBe(201);
    clock.advance(10 * MIN);
    await kick(campaignId);
    await statusesBecome(campaignId, { DO_NOT_CALL: 2, COMPLETED: 1 });
    await campaignBecomes(campaignId, 'COMPLETED');

    const contacts = await probe.contacts(campaignId);
    expect(contacts.find((c) => c.phone === listed)).toMatchObject({ status: 'DO_NOT_CALL', attempts: 0, last_outcome: 'do_not_call' });
    expect(contacts.find((c) => c.phone === busy)).toMatchObject({ status: 'DO_NOT_CALL', attempts: 1, last_outcome: 'do_not_call' });
    const calls = await probe.calls(campaignId);
    expect(calls.map((c) => c.to_number).sort()).toEqual([busy, fine].sort());
    expect(voice.placed.get(listed)).toBeUndefined();
    expect(voice.placed.get(busy)).toBe(1);
  });

  it('API leads: dialled when pushed, final ones get their lead result job (with the call, or none for do-not-call); the campaign keeps RUNNING', async () => {
    const api = await t.seed({ features: ['api_results'] });
    const { campaignId } = await runnableCampaign(t, api, { phones: [], settings: { source: 'API' } });
    await startCampaign(t, api, campaignId);
    const answered = sandboxNumber(11, 6);
    const listed = sandboxNumber(12, 7);
    expect((await t.http.post('/dnc').set(bearer(api.key)).send({ phone: listed })).status).toBe(201);
    for (const [key, phone] of [['lead-1', answered], ['lead-2', listed]]) {
      const pushed = await t.http.post(`/v1/campaigns/${campaignId}/leads`).set(bearer(api.key)).send({ idempotencyKey: key, phone });
      expect(pushed.status).toBe(201);
    }
    await statusesBecome(campaignId, { COMPLETED: 1, DO_NOT_CALL: 1 });
    const contacts = await probe.contacts(campaignId);
    const [call] = await probe.calls(campaignId);
    const leadFinal: Array<{ payload: { contactId: string; callId: string | null } }> = await t.dataSource.query(
      `SELECT payload FROM outbox WHERE queue = 'results' AND name = 'lead-final' ORDER BY created_at`,
    );
    expect(leadFinal.map((r) => r.payload).sort((a, b) => a.contactId.localeCompare(b.contactId))).toEqual(
      [
        { contactId: contacts.find((c) => c.phone === answered)!.id, callId: call.id },
        { contactId: contacts.find((c) => c.phone === listed)!.id, callId: null },
      ].sort((a, b) => a.contactId.localeCompare(b.contactId)),
    );
    expect(call.to_number).toBe(answered);
    expect(await kick(campaignId)).toMatchObject({ state: 'dispatched', claimed: 0 });
    expect(await probe.campaignStatus(campaignId)).toBe('RUNNING');
  });

  it('a placed call survives a transient database failure while it is settled (its outcome goes to a settle job; billed once)', async () => {
    const number = sandboxNumber(21, 6);
    const { campaignId } = await runnableCampaign(t, ws, { phones: [number] });
    const tariffs = worker.get(Tariffs);
    const spy = jest.spyOn(tariffs, 'voiceCostsMinor').mockRejectedValueOnce(new Error('timeout exceeded when trying to connect'));
    try {
      await startCampaign(t, ws, campaignId);
      await statusesBecome(campaignId, { COMPLETED: 1 });
      expect(spy).toHaveBeenCalledTimes(2); // the failed settle, then the retry
    } finally {
      spy.mockRestore();
    }
    expect(voice.placed.get(number)).toBe(1);
    const calls = await probe.calls(campaignId);
    expect(calls).toEqual([expect.objectContaining({ status: 'ENDED', outcome: 'completed' })]);
    const wallet = await probe.wallet(ws.workspaceId);
    expect(wallet.debitCount).toBe(1);
    expect(wallet.debits).toBe(Math.ceil(calls[0].duration_ms! / MIN) * 10);
  });

  it('past maxCallDurationSecs + grace the reaper asks the provider before it fails: a call still in progress waits; replays never dial', async () => {
    const number = sandboxNumber(4, 5);
    const { campaignId } = await runnableCampaign(t, ws, {
      phones: [number],
      agent: { maxCallDurationSecs: 300 },
      settings: { retryCount: 1, retryDelaysMinutes: [10], cooldownMinutes: 5 },
    });
    voice.closeGate();
    await startCampaign(t, ws, campaignId);
    await waitFor('the call in flight', async () => voice.held, (held) => held.length === 1);
    const [contact] = await probe.contacts(campaignId);
    expect(contact).toMatchObject({ status: 'IN_PROGRESS', attempts: 1, attempt_seq: 1 });

    // A replayed job asks the provider and leaves a call in flight to its events and poll; a stale one does nothing.
    const attempt = worker.get(ExecuteAttempt);
    expect(await attempt.execute(contact.id, 1)).toMatchObject({ state: 'placed' });
    expect(await attempt.execute(contact.id, 0)).toEqual({ state: 'stale' });
    expect(voice.placed.get(number)).toBe(1);

    // Not yet past the deadline (claim + 300 s + 120 s grace): not even asked.
    clock.advance((300 + 120) * 1000);
    expect(await reaper(worker).execute()).toEqual({ recovered: 0, reaped: 0, released: 0, waiting: 0 });
    // Past it: the provider still has the call, so the attempt keeps its slot; nothing is failed.
    clock.advance(1000);
    expect(await reaper(worker).execute()).toEqual({ recovered: 0, reaped: 0, released: 0, waiting: 1 });
    expect(await probe.calls(campaignId)).toEqual([expect.objectContaining({ status: 'IN_PROGRESS' })]); // answered (its events got through)

    // The call ends: its outcome is the provider's, settled once; the contact is never dialled again.
    voice.openGate();
    await statusesBecome(campaignId, { COMPLETED: 1 });
    const calls = await probe.calls(campaignId);
    expect(calls).toEqual([expect.objectContaining({ status: 'ENDED', outcome: 'completed', provider_disposition: 'completed' })]);
    expect(await reaper(worker).execute()).toEqual({ recovered: 0, reaped: 0, released: 0, waiting: 0 });
    expect((await probe.wallet(ws.workspaceId)).debitCount).toBe(1);
    expect(voice.placed.get(number)).toBe(1);
    expect(voice.maxConcurrentPerNumber).toBe(1);
  });

  it('a claim whose attempt job Redis lost is dialled once after ATTEMPT_IDLE_MS, not after its deadline (decisions.md 16.30)', async () => {
    const number = sandboxNumber(31, 6);
    const { campaignId } = await runnableCampaign(t, ws, { phones: [number] });
    const attempts = worker.producer.queue(EngineQueue.Attempts);
    await attempts.pause();
    try {
      await startCampaign(t, ws, campaignId);
      const [claimed] = await waitFor('the claim', () => probe.contacts(campaignId), (cs) => cs[0]?.status === 'IN_PROGRESS');
      const jobId = attemptJobId(claimed.id, claimed.attempt_seq);
      await waitFor('its attempt job queued', () => attempts.getJob(jobId), Boolean);
      // The outbox relay's copy too (it follows the direct add): a copy relayed after the flush would bring the job back.
      const undispatched = async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE job_id = $1 AND dispatched_at IS NULL`, [jobId]))[0].n as number;
      await waitFor('its outbox row relayed', undispatched, (n) => n === 0);
      await attempts.obliterate({ force: true }); // what a FLUSHALL does to it
      expect(await attempts.getJob(jobId)).toBeUndefined();
    } finally {
      await attempts.resume();
    }
    const maintenance = worker.get(EngineMaintenance);
    // Inside the idle time: the claim may still have its job; nothing is added, nothing dialled.
    clock.advance(59_000);
    expect(await maintenance.run()).toMatchObject({ resumed: 0, released: 0 });
    expect(voice.placed.get(number)).toBeUndefined();
    // Past it (long before claim + 600 s + grace): its attempt job again, under its own id; dialled once.
    clock.advance(2_000);
    expect(await maintenance.run()).toMatchObject({ resumed: 1, released: 0 });
    await statusesBecome(campaignId, { COMPLETED: 1 });
    expect(voice.placed.get(number)).toBe(1);
    expect(await probe.contacts(campaignId)).toEqual([expect.objectContaining({ attempts: 1, attempt_seq: 1 })]);
    expect((await maintenance.run()).resumed).toBe(0);
  });

  it('a claim whose attempt job used up its tries (in the failed set) is dialled once after ATTEMPT_IDLE_MS (decisions.md 16.34)', async () => {
    const number = sandboxNumber(32, 7);
    const { campaignId } = await runnableCampaign(t, ws, { phones: [number] });
    const attempts = worker.producer.queue(EngineQueue.Attempts);
    await attempts.pause();
    let jobId = '';
    let claimed: { id: string; attempt_seq: number };
    try {
      await startCampaign(t, ws, campaignId);
      [claimed] = await waitFor('the claim', () => probe.contacts(campaignId), (cs) => cs[0]?.status === 'IN_PROGRESS');
      jobId = attemptJobId(claimed.id, claimed.attempt_seq);
      await waitFor('its attempt job queued', () => attempts.getJob(jobId), Boolean);
      await attempts.obliterate({ force: true });
    } finally {
      await attempts.resume();
    }
    // The job under its own id runs out of tries (one here, five in production) while the database is out: it sits in the failed set.
    const execute = jest.spyOn(worker.get(ExecuteAttempt), 'execute').mockRejectedValue(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    try {
      await attempts.add('attempt', { contactId: claimed!.id, attemptSeq: claimed!.attempt_seq }, { jobId, attempts: 1 });
      await waitFor('the job failed', async () => (await attempts.getJob(jobId))?.isFailed(), Boolean);
    } finally {
      execute.mockRestore();
    }
    expect(voice.placed.get(number)).toBeUndefined();
    // An add under the failed job's id is ignored; the maintenance puts the failed job back.
    clock.advance(61_000);
    expect(await worker.get(EngineMaintenance).run()).toMatchObject({ resumed: 1 });
    await statusesBecome(campaignId, { COMPLETED: 1 });
    expect(voice.placed.get(number)).toBe(1);
    expect(await probe.contacts(campaignId)).toEqual([expect.objectContaining({ attempts: 1, attempt_seq: 1 })]);
  });
});

function sortKeys(o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}
