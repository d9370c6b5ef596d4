import { leadFinalJob } from '@outreach/results';
import { ENGINE_NOW, ENGINE_WS, EngineTestBed, engineTestBed } from '../testing';
import { attemptJob, EngineJob, EngineQueue } from './engine-jobs';

/* DispatchCampaign over in-memory fakes: slots, window, cap, claims, attempt jobs, completion, credit. */

const CID = 'campaign-1';
const HOUR = 3_600_000;

describe('DispatchCampaign', () => {
  let bed: EngineTestBed;
  beforeEach(() => {
    bed = engineTestBed();
  });

  const seedPending = (n: number, campaignId = CID) =>
    Array.from({ length: n }, (_, i) => bed.contacts.seed(ENGINE_WS, campaignId, { phone: `+1415555${String(1000 + i)}` }));
  const attemptJobs = () => bed.outbox.named(EngineQueue.Attempts, EngineJob.Attempt);
  const statusOf = (id: string) => bed.contacts.stored(id)!.status;

  describe('free slots', () => {
    it('claims as many contacts as the reservation leaves free, in upload order, with one attempt job each (jobId per contact and attemptSeq)', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 3 });
      const [a, b, c, d, e] = seedPending(5);

      const report = await bed.dispatch.execute(CID);

      expect(report).toEqual({ state: 'dispatched', claimed: 3, doNotCall: 0, nextWakeAt: new Date(ENGINE_NOW.getTime() + 2000) });
      expect([a, b, c, d, e].map((x) => statusOf(x.id))).toEqual(['IN_PROGRESS', 'IN_PROGRESS', 'IN_PROGRESS', 'PENDING', 'PENDING']);
      // Deadline: now + the agent's 300 s + REAPER_GRACE_SECONDS 120.
      expect(bed.contacts.stored(a.id)).toMatchObject({
        attempts: 1,
        attemptSeq: 1,
        attemptStartedAt: ENGINE_NOW,
        attemptDeadlineAt: new Date(ENGINE_NOW.getTime() + 420_000),
        currentCallId: null,
      });
      expect(attemptJobs()).toEqual([attemptJob(a.id, 1), attemptJob(b.id, 1), attemptJob(c.id, 1)]);
      expect(attemptJobs().map((j) => j.jobId)).toEqual([`attempt-${a.id}-1`, `attempt-${b.id}-1`, `attempt-${c.id}-1`]);
      expect(attemptJobs()[0].payload).toEqual({ contactId: a.id, attemptSeq: 1 });
      // After commit the same jobs go to the queue directly (the outbox row stays the guarantee).
      expect(bed.direct.batches).toEqual([attemptJobs()]);
      expect(bed.executionRepo.workspaceLocks).toEqual([ENGINE_WS]);
      expect(await bed.executionRepo.dialsOn(CID, '2026-11-18')).toBe(3);
      expect(bed.scheduler.wakeIns).toEqual([{ campaignId: CID, delayMs: 2000 }]);
    });

    it('counts attempts in flight against the reservation: a full campaign claims nothing and ticks again', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 2 });
      seedPending(2);
      await bed.dispatch.execute(CID);
      const [late] = seedPending(1, CID).map((c) => c.id);
      bed.outbox.jobs.length = 0;

      const report = await bed.dispatch.execute(CID);

      expect(report).toMatchObject({ state: 'dispatched', claimed: 0, nextWakeAt: new Date(ENGINE_NOW.getTime() + 2000) });
      expect(statusOf(late)).toBe('PENDING');
      expect(attemptJobs()).toEqual([]);
    });

    it('with allowBurst also takes the idle unreserved lines of the workspace; without it only its reservation', async () => {
      // Workspace of 10 lines; another RUNNING campaign reserves 3.
      bed.addCampaign({ id: 'other', reservedConcurrency: 3 });
      bed.addCampaign({ id: CID, reservedConcurrency: 2, allowBurst: true });
      seedPending(12);

      expect((await bed.dispatch.execute(CID)).claimed).toBe(7); // 2 reserved + (10 − 3 − 2) idle

      const bed2 = engineTestBed();
      bed2.addCampaign({ id: 'other', reservedConcurrency: 3 });
      bed2.addCampaign({ id: CID, reservedConcurrency: 2, allowBurst: false });
      for (let i = 0; i < 12; i++) bed2.contacts.seed(ENGINE_WS, CID, { phone: `+1415555${2000 + i}` });
      expect((await bed2.dispatch.execute(CID)).claimed).toBe(2);
    });
  });

  describe('window and dial days', () => {
    it('outside the daily window claims nothing and asks to be woken at the next opening', async () => {
      bed.clock.set(new Date('2026-11-18T19:30:00Z'));
      bed.addCampaign({ id: CID, reservedConcurrency: 3 });
      const [a] = seedPending(1);

      const report = await bed.dispatch.execute(CID);

      const opening = new Date('2026-11-19T09:00:00Z');
      expect(report).toEqual({ state: 'outside_window', claimed: 0, doNotCall: 0, nextWakeAt: opening });
      expect(bed.scheduler.wakeIns).toEqual([{ campaignId: CID, delayMs: opening.getTime() - Date.parse('2026-11-18T19:30:00Z') }]);
      expect(statusOf(a.id)).toBe('PENDING');
      expect(bed.outbox.jobs).toEqual([]);
    });

    it('reads the window in the campaign timezone', async () => {
      // 10:00 UTC is 05:00 in New York: the window opens at 09:00 local = 14:00 UTC.
      bed.addCampaign({ id: CID, draft: { timezone: 'America/New_York' } });
      seedPending(1);

      expect(await bed.dispatch.execute(CID)).toMatchObject({ state: 'outside_window', nextWakeAt: new Date('2026-11-18T14:00:00Z') });
    });

    it('on a day that is not a dial day wakes at the next dial day opening', async () => {
      // Wednesday; dialling on Mondays and Fridays only.
      bed.addCampaign({ id: CID, draft: { dialDays: [1, 5] } });
      seedPending(1);

      const report = await bed.dispatch.execute(CID);

      expect(report).toMatchObject({ state: 'outside_window', claimed: 0, nextWakeAt: new Date('2026-11-20T09:00:00Z') });
      expect(bed.scheduler.wakeIns).toEqual([{ campaignId: CID, delayMs: 2 * 24 * HOUR - HOUR }]);
    });
  });

  describe('daily dial cap', () => {
    it('claims only what is left of the cap, then waits for the next local day', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 5, draft: { dailyDialCap: 3 } });
      await bed.executionRepo.addDials(CID, '2026-11-18', 1);
      const [a, b, c] = seedPending(3);

      const report = await bed.dispatch.execute(CID);

      expect(report).toEqual({ state: 'daily_cap_reached', claimed: 2, doNotCall: 0, nextWakeAt: new Date('2026-11-19T09:00:00Z') });
      expect([a, b, c].map((x) => statusOf(x.id))).toEqual(['IN_PROGRESS', 'IN_PROGRESS', 'PENDING']);
      expect(await bed.executionRepo.dialsOn(CID, '2026-11-18')).toBe(3);
    });

    it('with the cap used up claims nothing', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 5, draft: { dailyDialCap: 3 } });
      await bed.executionRepo.addDials(CID, '2026-11-18', 3);
      const [a] = seedPending(1);

      expect(await bed.dispatch.execute(CID)).toMatchObject({ state: 'daily_cap_reached', claimed: 0 });
      expect(statusOf(a.id)).toBe('PENDING');
      expect(bed.executionRepo.claims).toEqual([]);
      expect(attemptJobs()).toEqual([]);
    });
  });

  describe('claims', () => {
    it('claims due retries before first dials, leaves retries not yet due and contacts still cooling down', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 10, draft: { cooldownMinutes: 60 } });
      const first = bed.contacts.seed(ENGINE_WS, CID, { phone: '+14155551001' });
      const due = bed.contacts.seed(ENGINE_WS, CID, {
        phone: '+14155551002',
        status: 'RETRY_SCHEDULED',
        attempts: 1,
        attemptSeq: 1,
        lastAttemptAt: '2026-11-18T08:00:00.000Z',
        nextAttemptAt: '2026-11-18T09:00:00.000Z',
      });
      const notDue = bed.contacts.seed(ENGINE_WS, CID, {
        phone: '+14155551003',
        status: 'RETRY_SCHEDULED',
        attempts: 1,
        attemptSeq: 1,
        lastAttemptAt: '2026-11-18T09:50:00.000Z',
        nextAttemptAt: '2026-11-18T11:00:00.000Z',
      });
      const cooling = bed.contacts.seed(ENGINE_WS, CID, { phone: '+14155551004', lastAttemptAt: '2026-11-18T09:30:00.000Z' });

      const report = await bed.dispatch.execute(CID);

      expect(report.claimed).toBe(2);
      expect(attemptJobs()).toEqual([attemptJob(due.id, 2), attemptJob(first.id, 1)]);
      expect(bed.contacts.stored(due.id)).toMatchObject({ status: 'IN_PROGRESS', attempts: 2, attemptSeq: 2, nextAttemptAt: null });
      expect(statusOf(notDue.id)).toBe('RETRY_SCHEDULED');
      expect(statusOf(cooling.id)).toBe('PENDING');
      expect(bed.executionRepo.claims[0]).toMatchObject({ limit: 10, cooldownMs: 60 * 60_000 });
    });

    it('with nothing due wakes at the next retry', async () => {
      bed.addCampaign({ id: CID });
      bed.contacts.seed(ENGINE_WS, CID, { phone: '+14155551003', status: 'RETRY_SCHEDULED', attempts: 1, attemptSeq: 1, nextAttemptAt: '2026-11-18T12:30:00.000Z' });

      const report = await bed.dispatch.execute(CID);

      expect(report).toEqual({ state: 'dispatched', claimed: 0, doNotCall: 0, nextWakeAt: new Date('2026-11-18T12:30:00Z') });
      expect(bed.scheduler.wakeIns).toEqual([{ campaignId: CID, delayMs: 2.5 * HOUR }]);
    });

    it('marks listed numbers DO_NOT_CALL without a call and fills the slot with the next contact', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 2 });
      const [listed, a, b] = seedPending(3);
      await bed.dnc.add(ENGINE_WS, { phone: listed.phone });

      const report = await bed.dispatch.execute(CID);

      expect(report).toMatchObject({ state: 'dispatched', claimed: 2, doNotCall: 1 });
      expect(bed.contacts.stored(listed.id)).toMatchObject({ status: 'DO_NOT_CALL', attempts: 0, lastOutcome: 'do_not_call' });
      expect(attemptJobs()).toEqual([attemptJob(a.id, 1), attemptJob(b.id, 1)]);
      expect(bed.outbox.jobs).toEqual(attemptJobs()); // a CSV contact gets no lead result
      expect(await bed.executionRepo.dialsOn(CID, '2026-11-18')).toBe(2);
    });

    it('a do-not-call API lead gets its final result job', async () => {
      bed.addCampaign({ id: CID, draft: { source: 'API' } });
      const [listed] = seedPending(1);
      await bed.dnc.add(ENGINE_WS, { phone: listed.phone });

      await bed.dispatch.execute(CID);

      expect(bed.outbox.jobs).toEqual([leadFinalJob(listed.id)]);
    });

    it('a failed direct enqueue still leaves the jobs in the outbox', async () => {
      bed.addCampaign({ id: CID });
      const [a] = seedPending(1);
      bed.direct.failing = true;

      expect(await bed.dispatch.execute(CID)).toMatchObject({ state: 'dispatched', claimed: 1 });
      expect(attemptJobs()).toEqual([attemptJob(a.id, 1)]);
    });
  });

  describe('completion and stops', () => {
    it('completes a CSV campaign whose contacts are all final', async () => {
      bed.addCampaign({ id: CID });
      bed.contacts.seed(ENGINE_WS, CID, { phone: '+14155551001', status: 'COMPLETED', attempts: 1 });
      bed.contacts.seed(ENGINE_WS, CID, { phone: '+14155551002', status: 'FAILED', attempts: 3 });

      expect(await bed.dispatch.execute(CID)).toEqual({ state: 'completed', claimed: 0, doNotCall: 0, nextWakeAt: null });
      expect(bed.campaigns.stored(CID)).toMatchObject({ status: 'COMPLETED', endedAt: ENGINE_NOW });
      expect(bed.scheduler.wakeIns).toEqual([]);
    });

    it('keeps a CSV campaign RUNNING while an attempt is in flight', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 1 });
      seedPending(1);
      await bed.dispatch.execute(CID);

      expect(await bed.dispatch.execute(CID)).toMatchObject({ state: 'dispatched', claimed: 0 });
      expect(bed.campaigns.stored(CID)!.status).toBe('RUNNING');
    });

    it('an API campaign without leads stays RUNNING and waits for an event (or its scheduled end)', async () => {
      bed.addCampaign({ id: CID, draft: { source: 'API' } });
      expect(await bed.dispatch.execute(CID)).toEqual({ state: 'dispatched', claimed: 0, doNotCall: 0, nextWakeAt: null });
      expect(bed.campaigns.stored(CID)!.status).toBe('RUNNING');

      const end = new Date('2026-11-18T16:00:00Z');
      bed.addCampaign({ id: 'api-2', draft: { source: 'API', scheduledEndAt: end } });
      expect(await bed.dispatch.execute('api-2')).toMatchObject({ nextWakeAt: end });
    });

    it('completes a campaign whose scheduled end has passed, leaving its contacts', async () => {
      bed.addCampaign({ id: CID, draft: { scheduledEndAt: new Date('2026-11-18T09:59:00Z') } });
      const [a] = seedPending(1);

      expect(await bed.dispatch.execute(CID)).toMatchObject({ state: 'completed', claimed: 0 });
      expect(bed.campaigns.stored(CID)!.status).toBe('COMPLETED');
      expect(statusOf(a.id)).toBe('PENDING');
    });

    it('with no money and no trial moves every RUNNING campaign of the workspace to CREDIT_EXHAUSTED and claims nothing', async () => {
      bed.addCampaign({ id: CID });
      bed.addCampaign({ id: 'sibling' });
      const [a] = seedPending(1);
      bed.wallet.balances.set(ENGINE_WS, 0);
      bed.credit.broke.add(ENGINE_WS);

      expect(await bed.dispatch.execute(CID)).toEqual({ state: 'credit_exhausted', claimed: 0, doNotCall: 0, nextWakeAt: null });
      expect(bed.campaigns.stored(CID)!.status).toBe('CREDIT_EXHAUSTED');
      expect(bed.campaigns.stored('sibling')!.status).toBe('CREDIT_EXHAUSTED');
      expect(statusOf(a.id)).toBe('PENDING');
      expect(bed.outbox.jobs).toEqual([]);
    });

    it('reads the money again after the lines (decisions.md 16.39): a settlement that freed a line and emptied the wallet between the two lets no call through', async () => {
      bed.addCampaign({ id: CID });
      const [a] = seedPending(1);
      // The wallet holds money when the run starts; the call whose end frees the line counted below
      // commits its debit with that line, emptying the wallet.
      const load = bed.executionRepo.workspaceLoad.bind(bed.executionRepo);
      bed.executionRepo.workspaceLoad = async (workspaceId: string) => {
        bed.wallet.balances.set(ENGINE_WS, 0);
        bed.credit.broke.add(ENGINE_WS);
        return load(workspaceId);
      };

      expect(await bed.dispatch.execute(CID)).toEqual({ state: 'credit_exhausted', claimed: 0, doNotCall: 0, nextWakeAt: null });
      expect(bed.campaigns.stored(CID)!.status).toBe('CREDIT_EXHAUSTED');
      expect(statusOf(a.id)).toBe('PENDING');
      expect(bed.executionRepo.claims).toEqual([]);
      expect(bed.outbox.jobs).toEqual([]);
    });

    it('with an empty wallet but an active trial still dials', async () => {
      bed.addCampaign({ id: CID });
      seedPending(1);
      bed.wallet.balances.set(ENGINE_WS, 0);

      expect(await bed.dispatch.execute(CID)).toMatchObject({ state: 'dispatched', claimed: 1 });
      expect(bed.campaigns.stored(CID)!.status).toBe('RUNNING');
    });

    it('does nothing for a campaign that is not RUNNING, unknown, or inbound', async () => {
      bed.addCampaign({ id: CID, status: 'PAUSED' });
      bed.addCampaign({ id: 'inbound', draft: { source: 'INBOUND' } });
      seedPending(1);
      seedPending(1, 'inbound');

      expect((await bed.dispatch.execute(CID)).state).toBe('not_running');
      expect((await bed.dispatch.execute('missing')).state).toBe('not_running');
      expect((await bed.dispatch.execute('inbound')).state).toBe('not_dialable');
      expect(bed.executionRepo.claims).toEqual([]);
      expect(bed.outbox.jobs).toEqual([]);
    });
  });
  describe('spend guard (budgetMinor, decisions.md 29.1)', () => {
    // The bed's agent holds calls up to 300 s at 10 per started minute: one call costs at most 50.
    const spent = (amountMinor: number, campaignId = CID) =>
      bed.debits.debits.push({ workspaceId: ENGINE_WS, amountMinor, kind: 'call', reference: `call-${bed.debits.debits.length}`, description: 'earlier call', campaignId });

    it('claims only the calls the budget can still pay for at their most', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 5, draft: { budgetMinor: 130 } });
      spent(30);
      spent(500, 'another-campaign');
      seedPending(5);

      const report = await bed.dispatch.execute(CID);

      // 130 − 30 = 100: two calls of at most 50.
      expect(report).toMatchObject({ state: 'dispatched', claimed: 2 });
      expect(attemptJobs()).toHaveLength(2);
    });

    it('counts the calls in flight at their most: with none fitting it waits for them, still RUNNING', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 5, draft: { budgetMinor: 149 } });
      seedPending(5);
      expect((await bed.dispatch.execute(CID)).claimed).toBe(2);

      const report = await bed.dispatch.execute(CID);

      // 149 − 2 × 50 in flight = 49: no room for a third.
      expect(report).toEqual({ state: 'budget_reached', claimed: 0, doNotCall: 0, nextWakeAt: new Date(ENGINE_NOW.getTime() + 2000) });
      expect((await bed.execution.campaign(CID))!.status).toBe('RUNNING');
      expect(attemptJobs()).toHaveLength(2);
      // The three left wait for the budget: one event each, however often the dispatcher looks.
      await bed.dispatch.execute(CID);
      const skips = bed.timeline.recorded.events.filter((r) => r.event.type === 'skipped');
      expect(skips).toHaveLength(3);
      expect(skips.every((r) => r.event.detail.reason === 'budget_reached')).toBe(true);
    });

    it('with nothing in flight and no call fitting pauses the campaign (budget_reached), its contacts untouched', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 5, draft: { budgetMinor: 100 } });
      spent(60);
      const waiting = seedPending(3);

      const report = await bed.dispatch.execute(CID);

      expect(report).toEqual({ state: 'paused', claimed: 0, doNotCall: 0, nextWakeAt: null });
      expect(await bed.execution.campaign(CID)).toMatchObject({ status: 'PAUSED', pauseReason: 'budget_reached' });
      expect(waiting.map((c) => statusOf(c.id))).toEqual(['PENDING', 'PENDING', 'PENDING']);
      expect(waiting.map((c) => bed.contacts.stored(c.id)!.attempts)).toEqual([0, 0, 0]);
      expect(attemptJobs()).toEqual([]);
      expect(bed.timeline.recorded.typesOf(waiting[0].id)).toEqual(['skipped']);
      expect(bed.timeline.recorded.events[0].event.detail).toEqual({ reason: 'budget_reached', until: null });
    });

    it('without a budget (null) the spend is not read and does not limit', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 3 });
      spent(1_000_000);
      seedPending(3);
      expect((await bed.dispatch.execute(CID)).claimed).toBe(3);
    });
  });

  describe('timeline (decisions.md 29.3)', () => {
    it('a contact kept out by the window gets one skipped event until the opening, however often the dispatcher looks', async () => {
      bed.clock.set(new Date('2026-11-18T23:35:00Z'));
      bed.addCampaign({ id: CID, reservedConcurrency: 3 });
      const [a] = seedPending(1);

      await bed.dispatch.execute(CID);
      bed.clock.set(new Date('2026-11-19T02:00:00Z'));
      await bed.dispatch.execute(CID);

      expect(bed.timeline.recorded.events.map((r) => r.event)).toEqual([
        { contactId: a.id, type: 'skipped', at: new Date('2026-11-18T23:35:00Z'), detail: { reason: 'outside_campaign_window', until: '2026-11-19T09:00:00.000Z' } },
      ]);

      bed.clock.set(new Date('2026-11-19T09:00:00Z'));
      await bed.dispatch.execute(CID);
      expect(bed.timeline.recorded.typesOf(a.id)).toEqual(['skipped', 'claimed']);
      expect(bed.timeline.recorded.events[1].event.detail).toEqual({ attempt: 1 });
    });

    it('a contact on the do-not-call list gets a skipped do_not_call event; the cap keeps the rest waiting until the next day', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 5, draft: { dailyDialCap: 1 } });
      const [listed, dialled, waiting] = seedPending(3);
      await bed.dnc.add(ENGINE_WS, { phone: listed.phone });

      await bed.dispatch.execute(CID);

      expect(bed.timeline.recorded.typesOf(listed.id)).toEqual(['skipped']);
      expect(bed.timeline.recorded.typesOf(dialled.id)).toEqual(['claimed']);
      expect(bed.timeline.recorded.typesOf(waiting.id)).toEqual(['skipped']);
      const waits = bed.timeline.recorded.events.filter((r) => r.event.type === 'skipped').map((r) => r.event.detail);
      expect(waits).toEqual([
        { reason: 'do_not_call', until: null },
        { reason: 'daily_cap', until: '2026-11-19T09:00:00.000Z' },
      ]);
    });
  });

  describe('recipient-local hours (decisions.md 28.4)', () => {
    // ENGINE_NOW, Wednesday 2026-11-18 10:00Z, is 19:00 in Tokyo (open) and 05:00 in New York (closed).
    const TOKYO = '+81312345675';
    const NEW_YORK = '+12127363105';
    const hours = { recipientHours: { start: '08:00', end: '21:00' } } as const;

    it('claims only contacts inside their recipient hours: the claim gets the keys of the open locales', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 5, draft: hours });
      const ny = bed.contacts.seed(ENGINE_WS, CID, { phone: NEW_YORK });
      const tokyo = bed.contacts.seed(ENGINE_WS, CID, { phone: TOKYO });

      expect(await bed.dispatch.execute(CID)).toMatchObject({ state: 'dispatched', claimed: 1 });
      expect(bed.executionRepo.claims[0].openLocales).toEqual(['Asia/Tokyo|JP']);
      expect([statusOf(ny.id), statusOf(tokyo.id)]).toEqual(['PENDING', 'IN_PROGRESS']);
    });

    it('when every due contact waits for its recipient, sleeps until the earliest opening (no tick)', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 5, draft: hours });
      bed.contacts.seed(ENGINE_WS, CID, { phone: NEW_YORK });
      bed.contacts.seed(ENGINE_WS, CID, { phone: '+14155550125' }); // Los Angeles: 02:00, opens at 16:00Z

      const report = await bed.dispatch.execute(CID);

      // 08:00 EST = 13:00Z, before Los Angeles' 16:00Z.
      expect(report).toEqual({ state: 'outside_recipient_hours', claimed: 0, doNotCall: 0, nextWakeAt: new Date('2026-11-18T13:00:00Z') });
      expect(bed.scheduler.wakeIns).toEqual([{ campaignId: CID, delayMs: 3 * HOUR }]);
    });

    it('records each waiting contact as skipped outside_recipient_hours until its own opening (decisions.md 29.3)', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 5, draft: hours });
      const ny = bed.contacts.seed(ENGINE_WS, CID, { phone: NEW_YORK });
      const la = bed.contacts.seed(ENGINE_WS, CID, { phone: '+14155550125' });

      await bed.dispatch.execute(CID);
      await bed.dispatch.execute(CID);

      const detailOf = (id: string) => bed.timeline.recorded.events.filter((r) => r.event.contactId === id).map((r) => r.event.detail);
      expect(detailOf(ny.id)).toEqual([{ reason: 'outside_recipient_hours', until: '2026-11-18T13:00:00.000Z' }]);
      expect(detailOf(la.id)).toEqual([{ reason: 'outside_recipient_hours', until: '2026-11-18T16:00:00.000Z' }]);
    });

    it('with the setting off every contact is claimed, the claim unfiltered', async () => {
      bed.addCampaign({ id: CID, reservedConcurrency: 5 }); // the bed's campaigns have recipient hours off
      bed.contacts.seed(ENGINE_WS, CID, { phone: NEW_YORK });
      expect(await bed.dispatch.execute(CID)).toMatchObject({ claimed: 1 });
      expect(bed.executionRepo.claims[0].openLocales).toBeNull();
    });
  });
});
