// Recipient-local calling hours and public holidays (issue 17 items 1, 2; decisions.md 28), and the
// leads' nextAttemptAt / waitingReason (item 5): a Tokyo and a New York contact in one campaign,
// run by the real worker on the real Postgres and Redis with a FixedClock the test moves.
process.env.DISPATCH_TICK_MS = '100';
process.env.REAPER_INTERVAL_MS = '3600000';

import { Clock, FixedClock } from '@outreach/platform';
import { DateTime } from 'luxon';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { waitFor } from '../support/tcp-proxy';
import { WorkerApp } from '../support/worker-app';
import { ContactRecipientLocale1763700009700 } from '../../libs/campaigns/src/infrastructure/migrations/1763700009700-contact-recipient-locale';
import { createCampaign, expectError, readCampaign } from '../campaigns/campaign-helpers';
import { pushLead, runningApiCampaign } from '../results/results-helpers';
import { CountingVoiceProvider, dispatcher, EngineProbe, runnableCampaign, sandboxFor, startCampaign, startWorker } from './engine-harness';

// Tokyo (one zone for Japan) ending 5: answered and completed. New York (area code 212) ending 0: no answer.
const TOKYO = '+81312345675';
const NEW_YORK = '+12127363100';

// Monday 2026-11-23 03:00Z: 12:00 in Tokyo on Labour Thanksgiving Day (a public holiday), 22:00 on
// Sunday the 22nd in New York (after hours). US Thanksgiving is Thursday the 26th.
const T0 = new Date('2026-11-23T03:00:00Z');
const NY_OPENS_MONDAY = new Date('2026-11-23T13:00:00Z'); // 08:00 EST
const TOKYO_OPENS_TUESDAY = new Date('2026-11-23T23:00:00Z'); // 08:00 JST on the 24th
const NY_RETRY_DUE = new Date('2026-11-26T13:00:00Z'); // 08:00 EST on Thanksgiving
const NY_OPENS_FRIDAY = new Date('2026-11-27T13:00:00Z'); // 08:00 EST the day after

type Lead = { id: string; phone: string; status: string; nextAttemptAt: string | null; waitingReason: string | null; recipientZone: string | null; recipientRegion: string | null };

describe('recipient-local hours and holidays', () => {
  const clock = new FixedClock(T0);
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
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    clock.set(T0);
    voice.reset();
    await t.reset();
    ws = await t.seed();
  });

  const leads = async (campaignId: string): Promise<Map<string, Lead>> => {
    const res = await t.http.get(`/campaigns/${campaignId}/leads`).set(bearer(ws.key));
    expect(res.status).toBe(200);
    return new Map((res.body.items as Lead[]).map((l) => [l.phone, l]));
  };
  /** The details of a contact's skipped timeline events, oldest first (decisions.md 29.3). */
  const skips = async (campaignId: string, contactId: string) => {
    const res = await t.http.get(`/campaigns/${campaignId}/contacts/${contactId}/timeline`).set(bearer(ws.key));
    expect(res.status).toBe(200);
    return (res.body.items as Array<{ type: string; detail: unknown }>).filter((e) => e.type === 'skipped').map((e) => e.detail);
  };
  const settled = (campaignId: string) => waitFor('no attempt in flight', () => probe.settled(campaignId), 20_000);

  it('a Tokyo and a New York contact are dialled only inside their own 08:00–21:00, never on a Japanese or US public holiday', async () => {
    const { campaignId } = await runnableCampaign(t, ws, {
      phones: [TOKYO, NEW_YORK],
      // The campaign dials around the clock in UTC: only the recipients' hours and holidays hold it back.
      settings: { recipientHours: { start: '08:00', end: '21:00' }, skipHolidays: true, retryCount: 1, retryDelaysMinutes: [3 * 24 * 60] },
    });
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });

    // T0: Tokyo is on a holiday, New York is after hours. Nothing is dialled; the dispatcher sleeps until
    // the earliest opening among its contacts (New York's 08:00), not a tick.
    expect(await kick(campaignId)).toEqual({ state: 'outside_recipient_hours', claimed: 0, doNotCall: 0, nextWakeAt: NY_OPENS_MONDAY });
    let view = await leads(campaignId);
    expect(view.get(TOKYO)).toMatchObject({ status: 'PENDING', waitingReason: 'holiday', nextAttemptAt: TOKYO_OPENS_TUESDAY.toISOString(), recipientZone: 'Asia/Tokyo', recipientRegion: 'JP' });
    expect(view.get(NEW_YORK)).toMatchObject({ status: 'PENDING', waitingReason: 'outside_recipient_hours', nextAttemptAt: NY_OPENS_MONDAY.toISOString(), recipientZone: 'America/New_York', recipientRegion: 'US-NY' });
    expect(voice.total()).toBe(0);
    // Their timelines say the same, each until its own opening.
    const tokyoId = view.get(TOKYO)!.id;
    const newYorkId = view.get(NEW_YORK)!.id;
    expect(await skips(campaignId, tokyoId)).toEqual([{ reason: 'holiday', until: TOKYO_OPENS_TUESDAY.toISOString() }]);
    expect(await skips(campaignId, newYorkId)).toEqual([{ reason: 'outside_recipient_hours', until: NY_OPENS_MONDAY.toISOString() }]);

    // 08:00 in New York: only New York is dialled (no answer: a retry in three days), Tokyo still waits.
    clock.set(NY_OPENS_MONDAY);
    await kick(campaignId);
    await waitFor('the New York call ended', async () => (await probe.statusCounts(campaignId)).RETRY_SCHEDULED === 1 && (await probe.settled(campaignId)));
    expect(voice.placed.get(NEW_YORK)).toBe(1);
    expect(voice.placed.get(TOKYO)).toBeUndefined();
    expect(await kick(campaignId)).toEqual({ state: 'outside_recipient_hours', claimed: 0, doNotCall: 0, nextWakeAt: TOKYO_OPENS_TUESDAY });

    // 08:00 on Tuesday in Tokyo: Tokyo is dialled and completes.
    clock.set(TOKYO_OPENS_TUESDAY);
    await kick(campaignId);
    await waitFor('the Tokyo call ended', async () => (await probe.statusCounts(campaignId)).COMPLETED === 1 && (await probe.settled(campaignId)));
    expect(voice.placed.get(TOKYO)).toBe(1);

    // New York's retry falls due on Thanksgiving: skipped for the whole local day, its place kept.
    clock.set(NY_RETRY_DUE);
    expect(await kick(campaignId)).toEqual({ state: 'outside_recipient_hours', claimed: 0, doNotCall: 0, nextWakeAt: NY_OPENS_FRIDAY });
    view = await leads(campaignId);
    expect(view.get(NEW_YORK)).toMatchObject({ status: 'RETRY_SCHEDULED', waitingReason: 'holiday', nextAttemptAt: NY_OPENS_FRIDAY.toISOString() });
    // Tokyo's wait was recorded once however often the dispatcher looked; New York's retry waits for the holiday.
    expect(await skips(campaignId, tokyoId)).toEqual([{ reason: 'holiday', until: TOKYO_OPENS_TUESDAY.toISOString() }]);
    expect(await skips(campaignId, newYorkId)).toEqual([
      { reason: 'outside_recipient_hours', until: NY_OPENS_MONDAY.toISOString() },
      { reason: 'holiday', until: NY_OPENS_FRIDAY.toISOString() },
    ]);
    expect(view.get(TOKYO)).toMatchObject({ status: 'COMPLETED', waitingReason: null, nextAttemptAt: null });
    expect(voice.placed.get(NEW_YORK)).toBe(1);

    clock.set(NY_OPENS_FRIDAY);
    await kick(campaignId);
    await waitFor('the campaign completed', async () => (await probe.campaignStatus(campaignId)) === 'COMPLETED' && (await probe.settled(campaignId)));
    expect(voice.placed.get(NEW_YORK)).toBe(2);

    // Every call started inside its recipient's 08:00–21:00 and not on a public holiday there.
    const calls = await probe.calls(campaignId);
    expect(calls).toHaveLength(3);
    const localStarts = calls.map((c) => {
      const zone = c.to_number === TOKYO ? 'Asia/Tokyo' : 'America/New_York';
      return `${c.to_number} ${DateTime.fromJSDate(c.started_at, { zone }).toFormat('ccc yyyy-MM-dd HH:mm')}`;
    });
    expect(localStarts.sort()).toEqual([`${NEW_YORK} Fri 2026-11-27 08:00`, `${NEW_YORK} Mon 2026-11-23 08:00`, `${TOKYO} Tue 2026-11-24 08:00`].sort());
  });

  it('recipientHours "off" and skipHolidays off: the same contacts are dialled at once', async () => {
    const { campaignId } = await runnableCampaign(t, ws, { phones: [TOKYO, NEW_YORK], settings: { recipientHours: 'off', retryCount: 0 } });
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });
    await waitFor('both dialled', async () => voice.total() === 2);
    await settled(campaignId);
    expect(voice.placed.get(TOKYO)).toBe(1);
    expect(voice.placed.get(NEW_YORK)).toBe(1);
  });

  it('a pushed lead outside its hours says why and when: GET /v1/campaigns/{id}/leads/{leadId}', async () => {
    // New campaigns have recipient hours on (08:00–21:00) and holidays off.
    const campaign = await runningApiCampaign(t, ws.key, ws.workspaceId, {
      timezone: 'UTC',
      dailyWindowStart: '00:00',
      dailyWindowEnd: '00:00',
      recipientHours: { start: '08:00', end: '21:00' },
    });
    const pushed = await pushLead(t, ws.key, campaign.id, { phone: NEW_YORK, idempotencyKey: 'ny-1' });
    expect(pushed.status).toBe(201);
    expect(await kick(campaign.id)).toEqual({ state: 'outside_recipient_hours', claimed: 0, doNotCall: 0, nextWakeAt: NY_OPENS_MONDAY });
    const res = await t.http.get(`/v1/campaigns/${campaign.id}/leads/${pushed.body.id}`).set(bearer(ws.key));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'PENDING', waitingReason: 'outside_recipient_hours', nextAttemptAt: NY_OPENS_MONDAY.toISOString() });
    expect(voice.total()).toBe(0);

    clock.set(NY_OPENS_MONDAY);
    await kick(campaign.id);
    await waitFor('the lead was dialled', async () => voice.total() === 1);
    await settled(campaign.id);
  });

  describe('settings: bounds, defaults and existing campaigns', () => {
    it('new campaigns default to 08:00–21:00 and no holiday skipping; both can be set and read back', async () => {
      const created = await createCampaign(t, ws.key);
      expect(created).toMatchObject({ recipientHours: { start: '08:00', end: '21:00' }, skipHolidays: false });
      const patched = await t.http
        .patch(`/v1/campaigns/${created.id}`)
        .set(bearer(ws.key))
        .send({ recipientHours: { start: '09:30', end: '20:00' }, skipHolidays: true });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ recipientHours: { start: '09:30', end: '20:00' }, skipHolidays: true });
      const off = await t.http.patch(`/v1/campaigns/${created.id}`).set(bearer(ws.key)).send({ recipientHours: 'off' });
      expect(off.status).toBe(200);
      expect((await readCampaign(t, ws.key, created.id)).recipientHours).toBe('off');
    });

    it('400 invalid_body for a bad window or value, and a refused request changes nothing', async () => {
      const created = await createCampaign(t, ws.key, { recipientHours: { start: '09:00', end: '17:00' } });
      const bad: unknown[] = [
        'on',
        null,
        true,
        { start: '21:00', end: '08:00' }, // past midnight: not a recipient window
        { start: '09:00', end: '09:00' },
        { start: '9:00', end: '17:00' },
        { start: '09:00', end: '24:00' },
        { start: '09:00' },
        { start: '09:00', end: '17:00', zone: 'UTC' },
        [],
      ];
      for (const recipientHours of bad) {
        const res = await t.http.patch(`/v1/campaigns/${created.id}`).set(bearer(ws.key)).send({ recipientHours });
        expectError(res, 400, 'invalid_body');
        expect(res.body.issues.map((i: { path: string }) => i.path)).toContain('recipientHours');
      }
      expectError(await t.http.patch(`/v1/campaigns/${created.id}`).set(bearer(ws.key)).send({ skipHolidays: 'yes' }), 400, 'invalid_body');
      expectError(await t.http.post('/v1/campaigns').set(bearer(ws.key)).send({ name: 'x', channel: 'VOICE', source: 'CSV', recipientHours: 'on' }), 400, 'invalid_body');
      expect(await readCampaign(t, ws.key, created.id)).toMatchObject({ recipientHours: { start: '09:00', end: '17:00' }, skipHolidays: false });
    });

    it('migration 1763700009700 fills the locale of existing contacts and turns the hours off for existing campaigns', async () => {
      const { campaignId } = await runnableCampaign(t, ws, { phones: [TOKYO, NEW_YORK, '+4915112345678'], settings: { recipientHours: { start: '08:00', end: '21:00' } } });
      const fresh = await createCampaign(t, ws.key);
      // As rows written before the migration: no locale, no recipientHours key in one campaign's settings.
      await t.dataSource.query(`UPDATE campaign_contacts SET recipient_zone = NULL, recipient_region = NULL WHERE campaign_id = $1`, [campaignId]);
      await t.dataSource.query(`UPDATE campaigns SET settings = settings - 'recipientHours' WHERE id = $1`, [campaignId]);
      const runner = t.dataSource.createQueryRunner();
      try {
        await new ContactRecipientLocale1763700009700().up(runner);
      } finally {
        await runner.release();
      }
      const rows: Array<{ phone: string; recipient_zone: string | null; recipient_region: string | null }> = await t.dataSource.query(
        `SELECT phone, recipient_zone, recipient_region FROM campaign_contacts WHERE campaign_id = $1 ORDER BY phone`,
        [campaignId],
      );
      expect(rows).toEqual([
        { phone: NEW_YORK, recipient_zone: 'America/New_York', recipient_region: 'US-NY' },
        { phone: '+4915112345678', recipient_zone: 'Europe/Berlin', recipient_region: 'DE' },
        { phone: TOKYO, recipient_zone: 'Asia/Tokyo', recipient_region: 'JP' },
      ]);
      expect((await readCampaign(t, ws.key, campaignId)).recipientHours).toBe('off');
      // A campaign that already had the setting keeps it.
      expect((await readCampaign(t, ws.key, fresh.id)).recipientHours).toEqual({ start: '08:00', end: '21:00' });
    });
  });
});
