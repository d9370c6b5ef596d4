// Live actions and sequences (docs/decisions.md 35): re-engage, finish-interrupted, follow-up calls for
// interested leads, churn re-contact, referrals, the retries' share of the lines, and the refused
// autoReseedEnabled — each through the real API and the real worker on Postgres and Redis, with a
// FixedClock the tests move and the sandbox's digit rules (last digit: outcome; second-to-last on a
// completed call: 6 not interested, 7 interested, 8 interested with a referral).
process.env.DISPATCH_TICK_MS = '100';
process.env.REAPER_INTERVAL_MS = '3600000'; // no reaper sweep: dispatch runs only when the test (or an attempt) asks

import { Clock, FixedClock } from '@outreach/platform';
import { sandboxReferralOf, sandboxScript } from '@outreach/telephony';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { createCampaign, expectError, readCampaign } from '../campaigns/campaign-helpers';
import { CountingVoiceProvider, dispatcher, EngineProbe, runnableCampaign, sandboxFor, sandboxNumber, startCampaign, startWorker, waitFor } from './engine-harness';

const MONDAY_10_UTC = new Date('2026-11-23T10:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;

/** A valid US number ending in `tail` (two digits): the last picks the outcome, the one before it the sandbox's analysis. */
const numberEnding = (index: number, tail: string) => `+1415${200 + index}00${tail}`;

describe('live actions and sequences (decisions.md 35)', () => {
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

  const sortKeys = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  const statusesBecome = (campaignId: string, expected: Record<string, number>) =>
    waitFor(
      `contact statuses ${JSON.stringify(expected)}`,
      async () => ({ counts: await probe.statusCounts(campaignId), settled: await probe.settled(campaignId) }),
      (s) => s.settled && JSON.stringify(sortKeys(s.counts)) === JSON.stringify(sortKeys(expected)),
    );
  const campaignBecomes = (campaignId: string, status: string) => waitFor(`campaign ${status}`, () => probe.campaignStatus(campaignId), (s) => s === status);
  const contactOf = async (campaignId: string, phone: string) => (await probe.contacts(campaignId)).find((c) => c.phone === phone)!;
  const post = (path: string, body: Record<string, unknown> = {}) => t.http.post(path).set(bearer(ws.key)).send(body);

  describe('re-engage (35.1)', () => {
    it('requeues a segment of a COMPLETED campaign with a fresh run; the campaign runs again and completes again', async () => {
      const unreached = sandboxNumber(0, 0);
      const reached = sandboxNumber(1, 5);
      const { campaignId } = await runnableCampaign(t, ws, { phones: [unreached, reached], settings: { retryCount: 0, cooldownMinutes: 5 } });
      await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });
      await statusesBecome(campaignId, { COMPLETED: 1, FAILED: 1 });
      await campaignBecomes(campaignId, 'COMPLETED');

      // The cooldown counts from the last attempt: the fresh run dials once it has passed.
      clock.advance(5 * MIN);
      const res = await post(`/campaigns/${campaignId}/re-engage`, { segment: 'failed' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ requeued: 1, campaign: { id: campaignId, status: 'RUNNING' } });
      await statusesBecome(campaignId, { COMPLETED: 1, FAILED: 1 });
      await campaignBecomes(campaignId, 'COMPLETED');
      expect(voice.placed.get(unreached)).toBe(2);
      expect(voice.placed.get(reached)).toBe(1);
      // A fresh run: the attempts of the run start again at 1.
      expect(await contactOf(campaignId, unreached)).toMatchObject({ status: 'FAILED', attempts: 1 });

      // `completed` takes the reached contact, over the /v1 path too.
      clock.advance(5 * MIN);
      const again = await post(`/v1/campaigns/${campaignId}/re-engage`, { segment: 'completed' });
      expect(again.body).toMatchObject({ requeued: 1, campaign: { status: 'RUNNING' } });
      await statusesBecome(campaignId, { COMPLETED: 1, FAILED: 1 });
      await campaignBecomes(campaignId, 'COMPLETED');
      expect(voice.placed.get(reached)).toBe(2);
    });

    it('a PAUSED campaign stays PAUSED: the requeued contacts wait for resume; a segment with nobody in it requeues 0', async () => {
      const waiting = sandboxNumber(0, 0);
      const reached = sandboxNumber(1, 5);
      const { campaignId } = await runnableCampaign(t, ws, {
        phones: [waiting, reached],
        settings: { retryCount: 1, retryDelaysMinutes: [60], cooldownMinutes: 5 },
      });
      await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });
      await statusesBecome(campaignId, { COMPLETED: 1, RETRY_SCHEDULED: 1 });
      expect((await post(`/campaigns/${campaignId}/pause`)).status).toBe(200);

      const res = await post(`/campaigns/${campaignId}/re-engage`, { segment: 'all' });
      expect(res.body).toMatchObject({ requeued: 1, campaign: { status: 'PAUSED' } });
      expect(await contactOf(campaignId, reached)).toMatchObject({ status: 'PENDING', attempts: 0 });
      expect(await kick(campaignId)).toMatchObject({ state: 'not_running', claimed: 0 });
      expect(voice.placed.get(reached)).toBe(1);

      const none = await post(`/campaigns/${campaignId}/re-engage`, { segment: 'failed' });
      expect(none.body).toMatchObject({ requeued: 0, campaign: { status: 'PAUSED' } });
    });

    it('409 campaign_not_reengageable on DRAFT and CANCELED campaigns, changing nothing; 400 invalid_body for an unknown segment; 404 campaign_not_found', async () => {
      const { campaignId } = await runnableCampaign(t, ws, { phones: [sandboxNumber(0, 5)] });
      const before = await probe.contacts(campaignId);
      expectError(await post(`/campaigns/${campaignId}/re-engage`, { segment: 'all' }), 409, 'campaign_not_reengageable');
      expect(await probe.contacts(campaignId)).toEqual(before);
      expect((await readCampaign(t, ws.key, campaignId)).status).toBe('DRAFT');

      expect((await post(`/campaigns/${campaignId}/stop`)).status).toBe(200);
      expectError(await post(`/campaigns/${campaignId}/re-engage`, { segment: 'all' }), 409, 'campaign_not_reengageable');
      expectError(await post(`/campaigns/${campaignId}/finish-interrupted`), 409, 'campaign_not_reengageable');
      expect((await readCampaign(t, ws.key, campaignId)).status).toBe('CANCELED');
      expect(await probe.contacts(campaignId)).toEqual(before);

      expectError(await post(`/campaigns/${campaignId}/re-engage`, { segment: 'interested' }), 400, 'invalid_body');
      expectError(await post(`/campaigns/${campaignId}/re-engage`, {}), 400, 'invalid_body');
      expectError(await post(`/campaigns/00000000-0000-4000-8000-000000000000/re-engage`, { segment: 'all' }), 404, 'campaign_not_found');
      expect(voice.total()).toBe(0);
    });
  });

  describe('finish-interrupted (35.2)', () => {
    const candidates = Array.from({ length: 400 }, (_, i) => sandboxNumber(i, 5));
    const short = candidates.find((n) => sandboxScript(n).durationMs < 60_000)!;
    const long = candidates.find((n) => sandboxScript(n).durationMs >= 60_000)!;

    it('calls again the contacts whose last call was cut before incompleteCallSeconds, with a fresh incomplete-retry budget', async () => {
      const { campaignId } = await runnableCampaign(t, ws, {
        phones: [short, long],
        settings: { retryCount: 0, cooldownMinutes: 5, incompleteRetryEnabled: true, incompleteCallSeconds: 60, incompleteRetryMaxAttempts: 1, incompleteRetryDelaysMinutes: [15] },
      });
      await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });
      await statusesBecome(campaignId, { COMPLETED: 1, RETRY_SCHEDULED: 1 });
      clock.advance(15 * MIN);
      await kick(campaignId);
      // Short again with its one incomplete retry spent: COMPLETED, interrupted.
      await statusesBecome(campaignId, { COMPLETED: 2 });
      await campaignBecomes(campaignId, 'COMPLETED');
      expect(voice.placed.get(short)).toBe(2);

      clock.advance(5 * MIN);
      const res = await post(`/campaigns/${campaignId}/finish-interrupted`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ requeued: 1, campaign: { status: 'RUNNING' } });
      // Dialled again, short again, and its fresh incomplete-retry budget schedules one more retry.
      await statusesBecome(campaignId, { COMPLETED: 1, RETRY_SCHEDULED: 1 });
      expect(voice.placed.get(short)).toBe(3);
      expect(voice.placed.get(long)).toBe(1);
      expect(await contactOf(campaignId, short)).toMatchObject({ status: 'RETRY_SCHEDULED', attempts: 1 });
    });

    it('409 incomplete_retry_disabled while incompleteRetryEnabled is off, changing nothing', async () => {
      const { campaignId } = await runnableCampaign(t, ws, { phones: [short, long], settings: { retryCount: 0, cooldownMinutes: 5, incompleteCallSeconds: 60 } });
      await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });
      await statusesBecome(campaignId, { COMPLETED: 2 });
      await campaignBecomes(campaignId, 'COMPLETED');
      const before = await probe.contacts(campaignId);
      expectError(await post(`/campaigns/${campaignId}/finish-interrupted`), 409, 'incomplete_retry_disabled');
      expect(await probe.contacts(campaignId)).toEqual(before);
      expect(await probe.campaignStatus(campaignId)).toBe('COMPLETED');
      expect(voice.total()).toBe(2);
    });
  });

  describe('sequences', () => {
    it('followupEnabled / followupMaxAttempts: an interested lead is called again after cooldownMinutes, at most followupMaxAttempts times (35.3)', async () => {
      const interested = numberEnding(1, '75');
      const notInterested = numberEnding(2, '65');
      const unsaid = numberEnding(3, '25');
      const { campaignId } = await runnableCampaign(t, ws, {
        phones: [interested, notInterested, unsaid],
        settings: { retryCount: 0, cooldownMinutes: 30, followupEnabled: true, followupMaxAttempts: 2 },
      });
      await startCampaign(t, ws, campaignId, { reservedConcurrency: 3 });
      await statusesBecome(campaignId, { COMPLETED: 2, RETRY_SCHEDULED: 1 });
      const first = await contactOf(campaignId, interested);
      expect(first).toMatchObject({ status: 'RETRY_SCHEDULED', attempts: 1 });
      expect(first.next_attempt_at).toEqual(new Date(MONDAY_10_UTC.getTime() + 30 * MIN));

      clock.advance(30 * MIN);
      await kick(campaignId);
      await waitFor('the second follow-up', () => contactOf(campaignId, interested), (c) => c.status === 'RETRY_SCHEDULED' && c.attempts === 2);
      clock.advance(30 * MIN);
      await kick(campaignId);
      await statusesBecome(campaignId, { COMPLETED: 3 });
      await campaignBecomes(campaignId, 'COMPLETED');
      expect([interested, notInterested, unsaid].map((n) => voice.placed.get(n))).toEqual([3, 1, 1]);
    });

    it('churnEnabled / churnMaxAttempts / churnDelaysHours / churnIntervalHours: a contact lost after its retries is re-contacted hours later (35.4)', async () => {
      const lost = sandboxNumber(0, 0);
      const { campaignId } = await runnableCampaign(t, ws, {
        phones: [lost],
        settings: { retryCount: 1, retryDelaysMinutes: [10], cooldownMinutes: 5, churnEnabled: true, churnMaxAttempts: 2, churnDelaysHours: [2], churnIntervalHours: 24 },
      });
      await startCampaign(t, ws, campaignId, { reservedConcurrency: 1 });
      await statusesBecome(campaignId, { RETRY_SCHEDULED: 1 });
      clock.advance(10 * MIN);
      await kick(campaignId);
      // Retries spent: the first churn re-contact after churnDelaysHours[0] = 2 h.
      let at = clock.now().getTime();
      await waitFor('the first churn re-contact', () => contactOf(campaignId, lost), (c) => c.attempts === 2 && c.status === 'RETRY_SCHEDULED');
      expect((await contactOf(campaignId, lost)).next_attempt_at).toEqual(new Date(at + 2 * HOUR));
      clock.advance(2 * HOUR);
      await kick(campaignId);
      // The second after churnIntervalHours = 24 h (no churnDelaysHours[1]).
      at = clock.now().getTime();
      await waitFor('the second churn re-contact', () => contactOf(campaignId, lost), (c) => c.attempts === 3 && c.status === 'RETRY_SCHEDULED');
      expect((await contactOf(campaignId, lost)).next_attempt_at).toEqual(new Date(at + 24 * HOUR));
      clock.advance(24 * HOUR);
      await kick(campaignId);
      await statusesBecome(campaignId, { FAILED: 1 });
      await campaignBecomes(campaignId, 'COMPLETED');
      expect(voice.placed.get(lost)).toBe(4);
    });

    it('referralMaxDepth: the numbers a person refers join the campaign as contacts, up to the depth; 0 adds none (35.6)', async () => {
      const root = numberEnding(0, '85'); // completed, interested, refers the next number, which refers the next…
      const depth1 = sandboxReferralOf(root);
      const depth2 = sandboxReferralOf(depth1);
      const { campaignId } = await runnableCampaign(t, ws, { phones: [root], settings: { retryCount: 0, cooldownMinutes: 5, referralMaxDepth: 2 } });
      await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });
      await campaignBecomes(campaignId, 'COMPLETED');
      await statusesBecome(campaignId, { COMPLETED: 3 });
      const rows: Array<{ id: string; phone: string; referral_depth: number; referred_by: string | null }> = await t.dataSource.query(
        `SELECT id, phone, referral_depth, referred_by FROM campaign_contacts WHERE campaign_id = $1 ORDER BY referral_depth`,
        [campaignId],
      );
      expect(rows.map((r) => [r.phone, r.referral_depth])).toEqual([
        [root, 0],
        [depth1, 1],
        [depth2, 2],
      ]);
      expect(rows[1].referred_by).toBe(rows[0].id);
      expect(rows[2].referred_by).toBe(rows[1].id);
      // depth2's own referral is past the depth: never added, never dialled.
      expect(voice.placed.get(sandboxReferralOf(depth2))).toBeUndefined();
      expect(voice.total()).toBe(3);
      const leads = await t.http.get(`/campaigns/${campaignId}/leads`).set(bearer(ws.key));
      expect(leads.body.items.map((l: { referralDepth: number; referredBy: string | null }) => [l.referralDepth, l.referredBy])).toEqual([
        [0, null],
        [1, rows[0].id],
        [2, rows[1].id],
      ]);
      expect((await readCampaign(t, ws.key, campaignId)).contactCount).toBe(3);

      // The default depth 0 captures nothing.
      const other = await runnableCampaign(t, ws, { phones: [numberEnding(5, '85')], settings: { retryCount: 0 } });
      await startCampaign(t, ws, other.campaignId, { reservedConcurrency: 1 });
      await campaignBecomes(other.campaignId, 'COMPLETED');
      expect(await probe.statusCounts(other.campaignId)).toEqual({ COMPLETED: 1 });
    });

    it.each([
      [25, { retries: 1, first: 3 }],
      [100, { retries: 4, first: 0 }],
    ])('retryConcurrencyPercent %i: while first dials wait, retries hold at most their share of the reserved lines (35.7)', async (percent, expected) => {
      const unreached = Array.from({ length: 4 }, (_, i) => sandboxNumber(i, 0));
      const fresh = Array.from({ length: 8 }, (_, i) => sandboxNumber(10 + i, 5));
      const { campaignId } = await runnableCampaign(t, ws, {
        phones: [...unreached, ...fresh],
        // The daily cap stops day one after the four unreached numbers; on day two their retries and eight first dials are due together.
        settings: { retryCount: 1, retryDelaysMinutes: [10], cooldownMinutes: 5, dailyDialCap: 4, retryConcurrencyPercent: percent },
      });
      await startCampaign(t, ws, campaignId, { reservedConcurrency: 4 });
      await statusesBecome(campaignId, { RETRY_SCHEDULED: 4, PENDING: 8 });

      clock.advance(24 * HOUR);
      voice.closeGate(); // the calls stay in flight: the lines are held
      await kick(campaignId);
      const inFlight = (await probe.contacts(campaignId)).filter((c) => c.status === 'IN_PROGRESS');
      expect(inFlight).toHaveLength(4);
      expect({ retries: inFlight.filter((c) => c.attempts === 2).length, first: inFlight.filter((c) => c.attempts === 1).length }).toEqual(expected);
      voice.openGate();
      await waitFor('the lines freed', () => probe.settled(campaignId), (s) => s);
    });

    it('autoReseedEnabled: true is refused (400 invalid_body) on create and PATCH, nothing stored; false is accepted (35.8)', async () => {
      const refused = await post('/v1/campaigns', { name: 'Reseed', channel: 'VOICE', source: 'CSV', autoReseedEnabled: true });
      expectError(refused, 400, 'invalid_body');
      expect(JSON.stringify(refused.body.issues)).toContain('autoReseedEnabled');
      const list = await t.http.get('/v1/campaigns').set(bearer(ws.key));
      expect(JSON.stringify(list.body)).not.toContain('Reseed');

      const campaign = await createCampaign(t, ws.key, { autoReseedEnabled: false });
      expect(campaign.autoReseedEnabled).toBe(false);
      expectError(await t.http.patch(`/v1/campaigns/${campaign.id}`).set(bearer(ws.key)).send({ autoReseedEnabled: true }), 400, 'invalid_body');
      expect((await readCampaign(t, ws.key, campaign.id)).autoReseedEnabled).toBe(false);
    });
  });
});
