// The spend guard (issue 17, item 4; decisions.md 29.1) through the real engine on Postgres and
// Redis, with a FixedClock: a campaign with a budget stops dialling before its ledger debits would
// pass it and pauses (budget_reached); contacts it did not reach stay PENDING and untouched; a
// budget raised by PATCH and a resume finish the campaign.
process.env.DISPATCH_TICK_MS = '100';
process.env.REAPER_INTERVAL_MS = '3600000';

import { Clock, FixedClock } from '@outreach/platform';
import { createCampaign, expectError, readCampaign } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { CountingVoiceProvider, EngineProbe, runnableCampaign, sandboxFor, sandboxNumber, startCampaign, startWorker, waitFor } from './engine-harness';

const NOW = new Date('2026-11-23T10:00:00Z');
const LINES = 3;
/** 120 s calls at the default 10 per started minute: one call costs at most 20. */
const MAX_CALL_SECS = 120;
const BUDGET = 100;

describe('campaign budget (spend guard)', () => {
  const clock = new FixedClock(NOW);
  const voice = new CountingVoiceProvider(sandboxFor(clock));
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;
  let probe: EngineProbe;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    worker = await startWorker({ clock, voice });
    probe = new EngineProbe(t);
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    clock.set(NOW);
    voice.reset();
    await t.reset();
    ws = await t.seed({ concurrency: LINES });
  });

  /** Sum and count of this campaign's call debits, read from the ledger through the calls they paid for. */
  const campaignDebits = async (campaignId: string) => {
    const [row]: Array<{ total: string; n: number }> = await t.dataSource.query(
      `SELECT COALESCE(SUM(l.amount_minor), 0) AS total, count(*)::int AS n
         FROM ledger_entries l JOIN calls c ON c.id::text = l.reference
        WHERE l.kind = 'debit' AND l.debit_kind = 'call' AND c.campaign_id = $1`,
      [campaignId],
    );
    return { total: Number(row.total), count: row.n };
  };

  it('pauses the campaign (budget_reached) before its debits pass the budget; the rest stay PENDING; a raised budget and a resume finish it', async () => {
    // Numbers ending 5-9: answered and completed, each billed 1 or 2 started minutes.
    const phones = Array.from({ length: 30 }, (_, i) => sandboxNumber(i, 5 + (i % 5)));
    const { campaignId } = await runnableCampaign(t, ws, {
      phones,
      settings: { budgetMinor: BUDGET },
      agent: { maxCallDurationSecs: MAX_CALL_SECS },
    });
    await startCampaign(t, ws, campaignId, { reservedConcurrency: LINES });

    await waitFor('the budget to pause the campaign', () => probe.campaignStatus(campaignId), (s) => s === 'PAUSED', 30_000);
    await waitFor('nothing in flight', () => probe.settled(campaignId), (settled) => settled);
    expect(await readCampaign(t, ws.key, campaignId)).toMatchObject({ status: 'PAUSED', pauseReason: 'budget_reached', budgetMinor: BUDGET });

    const debits = await campaignDebits(campaignId);
    expect(debits.total).toBeLessThanOrEqual(BUDGET);
    // It stopped because no further call fits at its most (20), not before.
    expect(debits.total).toBeGreaterThan(BUDGET - 2 * 20);
    const contacts = await probe.contacts(campaignId);
    const dialled = contacts.filter((c) => c.status !== 'PENDING');
    const waiting = contacts.filter((c) => c.status === 'PENDING');
    expect(dialled.every((c) => c.status === 'COMPLETED')).toBe(true);
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.every((c) => c.attempts === 0 && c.attempt_seq === 0 && c.last_attempt_at === null)).toBe(true);
    const calls = await probe.calls(campaignId);
    expect(calls).toHaveLength(dialled.length);
    expect(voice.total()).toBe(dialled.length);
    expect(debits.count).toBe(dialled.length);
    // Every waiting contact's timeline says why it waits.
    const timeline = await t.http.get(`/campaigns/${campaignId}/contacts/${waiting[0].id}/timeline`).set(bearer(ws.key));
    expect(timeline.status).toBe(200);
    expect(timeline.body.items.map((e: { type: string }) => e.type)).toEqual(['created', 'skipped']);
    expect(timeline.body.items[1].detail).toEqual({ reason: 'budget_reached', until: null });
    // And the leads listing says so too (decisions.md 28.5): budget_reached, not campaign_paused.
    const leads = await t.http.get(`/campaigns/${campaignId}/leads`).query({ status: 'PENDING', limit: 100 }).set(bearer(ws.key));
    expect(leads.status).toBe(200);
    expect(leads.body.items.length).toBe(waiting.length);
    expect(leads.body.items.every((l: { waitingReason: string | null; nextAttemptAt: string | null }) => l.waitingReason === 'budget_reached' && l.nextAttemptAt === null)).toBe(true);

    // Resuming without more budget pauses again at once and dials nobody.
    expect((await t.http.post(`/campaigns/${campaignId}/resume`).set(bearer(ws.key)).send({})).status).toBe(200);
    await waitFor('the budget to pause it again', () => probe.campaignStatus(campaignId), (s) => s === 'PAUSED', 20_000);
    expect(voice.total()).toBe(dialled.length);

    // More budget by PATCH (a PAUSED campaign may be edited), then resume: the rest is dialled.
    const raised = await t.http.patch(`/v1/campaigns/${campaignId}`).set(bearer(ws.key)).send({ budgetMinor: 10_000 });
    expect(raised.status).toBe(200);
    expect(raised.body).toMatchObject({ budgetMinor: 10_000, status: 'PAUSED' });
    expect((await t.http.post(`/campaigns/${campaignId}/resume`).set(bearer(ws.key)).send({})).status).toBe(200);
    await waitFor('the campaign to complete', () => probe.campaignStatus(campaignId), (s) => s === 'COMPLETED', 30_000);
    expect(await probe.statusCounts(campaignId)).toEqual({ COMPLETED: phones.length });
    expect((await campaignDebits(campaignId)).total).toBeLessThanOrEqual(10_000);
  }, 90_000);

  it('budgetMinor is an integer 1..10^12 or null: anything else is 400 invalid_body at budgetMinor and changes nothing', async () => {
    const campaign = await createCampaign(t, ws.key, { budgetMinor: 500 });
    expect(campaign.budgetMinor).toBe(500);
    const before = await readCampaign(t, ws.key, campaign.id);
    for (const bad of [0, -1, 1_000_000_000_001, 1.5, '100', true]) {
      const res = await t.http.patch(`/v1/campaigns/${campaign.id}`).set(bearer(ws.key)).send({ budgetMinor: bad });
      expectError(res, 400, 'invalid_body');
      expect(res.body.issues.map((i: { path: string }) => i.path)).toContain('budgetMinor');
    }
    const refusedCreate = await t.http
      .post('/v1/campaigns')
      .set(bearer(ws.key))
      .send({ name: `budget ${Date.now()}`, channel: 'VOICE', source: 'CSV', budgetMinor: 0 });
    expectError(refusedCreate, 400, 'invalid_body');
    expect(await readCampaign(t, ws.key, campaign.id)).toEqual(before);

    const edge = await t.http.patch(`/v1/campaigns/${campaign.id}`).set(bearer(ws.key)).send({ budgetMinor: 1_000_000_000_000 });
    expect(edge.status).toBe(200);
    expect(edge.body.budgetMinor).toBe(1_000_000_000_000);
    const cleared = await t.http.patch(`/v1/campaigns/${campaign.id}`).set(bearer(ws.key)).send({ budgetMinor: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.budgetMinor).toBeNull();
    expect((await createCampaign(t, ws.key)).budgetMinor).toBeNull();
  });
});
