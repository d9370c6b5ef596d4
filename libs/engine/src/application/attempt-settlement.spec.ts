import { analyseCallJob } from '@outreach/calls';
import { CampaignSource, ExecutionCampaign } from '@outreach/campaigns';
import { leadFinalJob } from '@outreach/results';
import { CallOutcome, VoiceCallResult } from '@outreach/telephony';
import { ENGINE_AGENT, ENGINE_NOW, ENGINE_NUMBER, ENGINE_WS, EngineTestBed, engineTestBed } from '../testing';

/* AttemptSettlement over in-memory fakes: the Call's ending, the contact's next status, the debit, the outbox jobs. */

const CID = 'campaign-1';
const MINUTE = 60_000;
const at = (minutes: number) => new Date(ENGINE_NOW.getTime() + minutes * MINUTE);

function result(outcome: CallOutcome, durationMs: number, transcript: string | null = null): VoiceCallResult {
  const answered = durationMs > 0;
  return {
    outcome,
    providerDisposition: outcome,
    providerCallId: 'provider-1',
    answeredAt: answered ? ENGINE_NOW : null,
    endedAt: new Date(ENGINE_NOW.getTime() + durationMs),
    durationMs,
    transcript,
    recordingUrl: null,
  };
}

describe('AttemptSettlement', () => {
  let bed: EngineTestBed;
  let campaign: ExecutionCampaign;

  /** Default retry settings: retryCount 2, delays [60, 240] min, cooldown 60 min; 10 minor units per started minute. */
  async function setup(options: { source?: CampaignSource; settings?: Record<string, unknown> } = {}) {
    bed = engineTestBed();
    bed.addCampaign({ id: CID, draft: { source: options.source ?? 'CSV', ...options.settings } });
    campaign = (await bed.execution.campaign(CID))!;
  }

  /** A contact on its `attempts`-th attempt whose call has started. */
  async function inFlight(attempts = 1, incompleteRetries = 0, phone = '+14155551001', fromNumber = ENGINE_NUMBER) {
    const contact = bed.contacts.seed(ENGINE_WS, CID, {
      phone,
      status: 'IN_PROGRESS',
      attempts,
      attemptSeq: attempts,
      incompleteRetries,
      attemptStartedAt: ENGINE_NOW,
      attemptDeadlineAt: at(7),
    });
    const { callId } = await bed.callLog.start({
      workspaceId: ENGINE_WS,
      campaignId: CID,
      contactId: contact.id,
      agentId: ENGINE_AGENT,
      fromNumber,
      toNumber: phone,
      attemptNumber: attempts,
      kind: 'campaign',
    });
    await bed.executionRepo.markCallStarted(contact.id, attempts, callId);
    return { contactId: contact.id, attemptSeq: attempts, callId };
  }

  const settle = (attempt: { contactId: string; attemptSeq: number; callId: string }, r: VoiceCallResult) =>
    bed.settlement.settle({ ...attempt, campaign, result: r });

  beforeEach(() => setup());

  it('an answered call: the Call ends, the contact COMPLETES, the started minutes are debited, the transcript is analysed, the dispatcher is woken', async () => {
    const attempt = await inFlight();

    const settled = await settle(attempt, result('completed', 61_000, 'Agent: hello'));

    expect(settled).toMatchObject({ contactStatus: 'COMPLETED', debitedMinor: 20 });
    expect(settled.call).toMatchObject({ id: attempt.callId, status: 'ENDED', outcome: 'completed', durationMs: 61_000, analysisStatus: 'PENDING' });
    expect(bed.calls.rows.get(attempt.callId)).toMatchObject({ status: 'ENDED', outcome: 'completed' });
    expect(bed.contacts.stored(attempt.contactId)).toMatchObject({
      status: 'COMPLETED',
      lastOutcome: 'completed',
      lastAttemptAt: ENGINE_NOW.toISOString(),
      nextAttemptAt: null,
      attemptDeadlineAt: null,
    });
    // 61 s = 2 started minutes at 10, counted against the campaign's budget (decisions.md 29.1).
    expect(bed.debits.debits).toEqual([
      { workspaceId: ENGINE_WS, amountMinor: 20, kind: 'call', reference: attempt.callId, campaignId: CID, description: 'Call to +14155551001: completed, 2 min' },
    ]);
    expect(bed.outbox.jobs).toEqual([analyseCallJob(attempt.callId)]);
    expect(bed.scheduler.wakeNows).toEqual([CID]);
  });

  it('no answer on a first attempt: RETRY_SCHEDULED after the first delay, no debit, no analysis without a transcript', async () => {
    const attempt = await inFlight(1);

    const settled = await settle(attempt, result('no_answer', 0));

    expect(settled).toMatchObject({ contactStatus: 'RETRY_SCHEDULED', debitedMinor: 0 });
    expect(settled.call.analysisStatus).toBe('SKIPPED');
    expect(bed.contacts.stored(attempt.contactId)).toMatchObject({
      status: 'RETRY_SCHEDULED',
      nextAttemptAt: at(60).toISOString(),
      lastOutcome: 'no_answer',
      incompleteRetries: 0,
    });
    expect(bed.debits.debits).toEqual([]);
    expect(bed.outbox.jobs).toEqual([]);
    // The contact's timeline (decisions.md 29.3), written in the settlement's transaction.
    expect(bed.timeline.recorded.events.map((r) => r.event)).toEqual([
      { contactId: attempt.contactId, type: 'attempt_ended', at: ENGINE_NOW, detail: { attempt: 1, callId: attempt.callId, outcome: 'no_answer', status: 'RETRY_SCHEDULED' } },
      { contactId: attempt.contactId, type: 'retry_scheduled', at: ENGINE_NOW, detail: { at: at(60).toISOString(), why: 'no_answer' } },
    ]);
  });

  it('a second unanswered attempt waits the second delay; once the retries are used up the contact FAILS', async () => {
    const second = await inFlight(2, 0, '+14155551002');
    await settle(second, result('busy', 0));
    expect(bed.contacts.stored(second.contactId)).toMatchObject({ status: 'RETRY_SCHEDULED', nextAttemptAt: at(240).toISOString() });

    const third = await inFlight(3, 0, '+14155551003');
    expect((await settle(third, result('no_answer', 0))).contactStatus).toBe('FAILED');
    expect(bed.contacts.stored(third.contactId)).toMatchObject({ status: 'FAILED', nextAttemptAt: null, lastOutcome: 'no_answer' });
  });

  it('a carrier failure FAILS the Call and schedules a retry', async () => {
    const attempt = await inFlight();

    const settled = await settle(attempt, result('carrier_failure', 0));

    expect(settled.call).toMatchObject({ status: 'FAILED', outcome: 'carrier_failure' });
    expect(bed.contacts.stored(attempt.contactId)).toMatchObject({ status: 'RETRY_SCHEDULED', nextAttemptAt: at(60).toISOString() });
  });

  it('a voicemail is billed (a machine answered); with skipRetryOnFirstVoicemail it ends the contact as FAILED', async () => {
    await setup({ settings: { skipRetryOnFirstVoicemail: true } });
    const attempt = await inFlight();

    const settled = await settle(attempt, result('voicemail', 30_000));

    expect(settled).toMatchObject({ contactStatus: 'FAILED', debitedMinor: 10 });
    expect(bed.debits.debits.map((d) => d.amountMinor)).toEqual([10]);
  });

  it('a connected call shorter than incompleteCallSeconds is retried as an incomplete call (its 30 min delay raised to the 60 min cooldown)', async () => {
    await setup({ settings: { incompleteRetryEnabled: true, incompleteRetryMaxAttempts: 1, incompleteRetryDelaysMinutes: [30], incompleteCallSeconds: 20 } });
    const attempt = await inFlight();

    const settled = await settle(attempt, result('completed', 10_000, 'Agent: hi'));

    expect(settled).toMatchObject({ contactStatus: 'RETRY_SCHEDULED', debitedMinor: 10 });
    expect(bed.contacts.stored(attempt.contactId)).toMatchObject({ status: 'RETRY_SCHEDULED', nextAttemptAt: at(60).toISOString(), incompleteRetries: 1 });

    // The incomplete retries are used up: the next short call completes the contact.
    const again = await inFlight(2, 1, '+14155551009');
    expect((await settle(again, result('completed', 10_000))).contactStatus).toBe('COMPLETED');
  });

  it('an API lead that reaches a final status gets its lead-final job with the call; a retry does not', async () => {
    await setup({ source: 'API' });
    const retried = await inFlight(1, 0, '+14155551001');
    await settle(retried, result('no_answer', 0));
    expect(bed.outbox.jobs).toEqual([]);

    const done = await inFlight(1, 0, '+14155551002');
    await settle(done, result('completed', 5_000, 'Agent: hi'));
    expect(bed.outbox.jobs).toEqual([analyseCallJob(done.callId), leadFinalJob(done.contactId, done.callId)]);
  });

  it('a CSV contact reaching a final status gets no lead-final job', async () => {
    const attempt = await inFlight(3);
    await settle(attempt, result('busy', 0));
    expect(bed.contacts.stored(attempt.contactId)!.status).toBe('FAILED');
    expect(bed.outbox.jobs).toEqual([]);
  });

  it('settling twice changes nothing the second time: one debit, one analysis job, the contact as the first left it', async () => {
    const attempt = await inFlight();
    await settle(attempt, result('completed', 61_000, 'Agent: hello'));
    const contactAfterFirst = bed.contacts.stored(attempt.contactId);

    const second = await settle(attempt, result('no_answer', 0));

    expect(second).toMatchObject({ contactStatus: null, debitedMinor: 0 });
    expect(second.call).toMatchObject({ outcome: 'completed', durationMs: 61_000 });
    expect(bed.contacts.stored(attempt.contactId)).toEqual(contactAfterFirst);
    expect(bed.debits.debits).toHaveLength(1);
    expect(bed.outbox.jobs).toEqual([analyseCallJob(attempt.callId)]);
    expect(bed.scheduler.wakeNows).toEqual([CID]);
  });

  it('a stale attempt (the contact moved on) still records and bills the call but leaves the contact alone', async () => {
    const attempt = await inFlight();
    const moved = bed.contacts.rows.get(attempt.contactId)!;
    moved.attemptSeq = 2; // claimed again after a release
    moved.currentCallId = null;

    const settled = await settle(attempt, result('completed', 61_000));

    expect(settled).toMatchObject({ contactStatus: null, debitedMinor: 20 });
    expect(bed.calls.rows.get(attempt.callId)!.status).toBe('ENDED');
    expect(bed.contacts.stored(attempt.contactId)).toMatchObject({ status: 'IN_PROGRESS', attemptSeq: 2, lastOutcome: null });
    expect(bed.scheduler.wakeNows).toEqual([]);
  });

  it('a debit that leaves the wallet empty with no trial moves the RUNNING campaigns to CREDIT_EXHAUSTED', async () => {
    bed.addCampaign({ id: 'sibling' });
    bed.credit.broke.add(ENGINE_WS);
    const attempt = await inFlight();

    await settle(attempt, result('completed', 61_000));

    expect(bed.contacts.stored(attempt.contactId)!.status).toBe('COMPLETED');
    expect(bed.campaigns.stored(CID)!.status).toBe('CREDIT_EXHAUSTED');
    expect(bed.campaigns.stored('sibling')!.status).toBe('CREDIT_EXHAUSTED');
  });

  it('an empty wallet with a trial, or an unanswered call, leaves the campaign RUNNING', async () => {
    const answered = await inFlight(1, 0, '+14155551001');
    await settle(answered, result('completed', 61_000));
    expect(bed.campaigns.stored(CID)!.status).toBe('RUNNING');

    bed.credit.broke.add(ENGINE_WS);
    const unanswered = await inFlight(1, 0, '+14155551002');
    await settle(unanswered, result('no_answer', 0));
    expect(bed.campaigns.stored(CID)!.status).toBe('RUNNING');
  });

  it('is one transaction: a failing debit undoes the Call ending, the contact status and the jobs; settling again works', async () => {
    const attempt = await inFlight();
    const debit = bed.debits.debit.bind(bed.debits);
    bed.debits.debit = async () => {
      throw new Error('wallet row locked');
    };

    await expect(settle(attempt, result('completed', 61_000, 'Agent: hello'))).rejects.toThrow('wallet row locked');
    expect(bed.calls.rows.get(attempt.callId)!.status).toBe('QUEUED');
    expect(bed.contacts.stored(attempt.contactId)!.status).toBe('IN_PROGRESS');
    expect(bed.outbox.jobs).toEqual([]);
    expect(bed.scheduler.wakeNows).toEqual([]);
    expect(bed.timeline.recorded.events).toEqual([]);

    bed.debits.debit = debit;
    expect(await settle(attempt, result('completed', 61_000, 'Agent: hello'))).toMatchObject({ contactStatus: 'COMPLETED', debitedMinor: 20 });
    expect(bed.timeline.recorded.typesOf(attempt.contactId)).toEqual(['attempt_ended']);
  });

  it('a failed wake-up does not fail the settlement', async () => {
    bed.scheduler.failing = true;
    const attempt = await inFlight();
    expect((await settle(attempt, result('completed', 1_000))).contactStatus).toBe('COMPLETED');
  });

  describe('settleMany: several endings in one transaction (decisions.md 16.31)', () => {
    it('settles each as settle() would, debits the workspace once for the batch, and wakes the campaign once', async () => {
      const answered = await inFlight(1, 0, '+14155551001');
      const unanswered = await inFlight(1, 0, '+14155551002');
      const stale = await inFlight(1, 0, '+14155551003');
      Object.assign(bed.contacts.rows.get(stale.contactId)!, { attemptSeq: 2, currentCallId: null });
      const debitMany = jest.spyOn(bed.debits, 'debitMany');

      const settled = await bed.settlement.settleMany([
        { ...answered, campaign, result: result('completed', 61_000, 'Agent: hello') },
        { ...unanswered, campaign, result: result('no_answer', 0) },
        { ...stale, campaign, result: result('completed', 1_000) },
      ]);

      expect(settled.map((s) => [s.call.id, s.contactStatus, s.debitedMinor])).toEqual([
        [answered.callId, 'COMPLETED', 20],
        [unanswered.callId, 'RETRY_SCHEDULED', 0],
        [stale.callId, null, 10],
      ]);
      expect(bed.contacts.stored(answered.contactId)).toMatchObject({ status: 'COMPLETED', lastOutcome: 'completed' });
      expect(bed.contacts.stored(unanswered.contactId)).toMatchObject({ status: 'RETRY_SCHEDULED', nextAttemptAt: at(60).toISOString() });
      expect(bed.contacts.stored(stale.contactId)).toMatchObject({ status: 'IN_PROGRESS', attemptSeq: 2, lastOutcome: null });
      expect([...bed.calls.rows.values()].map((c) => c.status).sort()).toEqual(['ENDED', 'ENDED', 'ENDED']);
      expect(debitMany).toHaveBeenCalledTimes(1);
      expect(debitMany.mock.calls[0][0].map((d) => [d.reference, d.amountMinor])).toEqual([
        [answered.callId, 20],
        [stale.callId, 10],
      ]);
      expect(bed.outbox.jobs).toEqual([analyseCallJob(answered.callId)]);
      expect(bed.timeline.recorded.typesOf(unanswered.contactId)).toEqual(['attempt_ended', 'retry_scheduled']);
      expect(bed.scheduler.wakeNows).toEqual([CID]);
    });

    it('is one transaction: one failing part leaves every ending of the batch unwritten', async () => {
      const first = await inFlight(1, 0, '+14155551001');
      const second = await inFlight(1, 0, '+14155551002');
      bed.debits.debitMany = async () => {
        throw new Error('wallet row locked');
      };

      await expect(
        bed.settlement.settleMany([
          { ...first, campaign, result: result('completed', 61_000) },
          { ...second, campaign, result: result('no_answer', 0) },
        ]),
      ).rejects.toThrow('wallet row locked');
      expect([...bed.calls.rows.values()].map((c) => c.status)).toEqual(['QUEUED', 'QUEUED']);
      expect(bed.contacts.stored(second.contactId)!.status).toBe('IN_PROGRESS');
      expect(bed.timeline.recorded.events).toEqual([]);
    });

    it('refuses a batch naming a contact twice', async () => {
      const attempt = await inFlight();
      await expect(
        bed.settlement.settleMany([
          { ...attempt, campaign, result: result('completed', 1_000) },
          { ...attempt, campaign, result: result('completed', 1_000) },
        ]),
      ).rejects.toThrow('a contact is named twice');
    });
  });

  describe('CallEndings: endings that arrive together are settled together (decisions.md 16.31)', () => {
    it('endings arriving while one is written share one settlement; each caller gets its own report', async () => {
      const attempts = await Promise.all(['+14155551001', '+14155551002', '+14155551003', '+14155551004'].map((phone) => inFlight(1, 0, phone)));
      const settleMany = jest.spyOn(bed.settlement, 'settleMany');

      const reports = await Promise.all(attempts.map((a) => bed.endings.end(a.callId, result('completed', 1_000))));

      expect(reports.map((r) => r.state)).toEqual(['settled', 'settled', 'settled', 'settled']);
      // The first two start alone at once (two groups in flight); the two that arrived meanwhile go together.
      const [a, b, c, d] = attempts.map((x) => x.callId);
      expect(settleMany.mock.calls.map(([inputs]) => inputs.map((i) => i.callId))).toEqual([[a], [b], [c, d]]);
      for (const a of attempts) expect(bed.contacts.stored(a.contactId)!.status).toBe('COMPLETED');
    });

    it('ENGINE_GROUPS_IN_FLIGHT and ENGINE_GROUP_MAX (decisions.md 16.37): one group at a time of at most two endings', async () => {
      bed = engineTestBed({ groupsInFlight: 1, groupMax: 2 });
      bed.addCampaign({ id: CID, draft: { source: 'CSV' } });
      campaign = (await bed.execution.campaign(CID))!;
      const attempts = await Promise.all(['+14155551001', '+14155551002', '+14155551003', '+14155551004', '+14155551005'].map((phone) => inFlight(1, 0, phone)));
      const settleMany = jest.spyOn(bed.settlement, 'settleMany');

      const reports = await Promise.all(attempts.map((a) => bed.endings.end(a.callId, result('completed', 1_000))));

      expect(reports.map((r) => r.state)).toEqual(['settled', 'settled', 'settled', 'settled', 'settled']);
      // The first alone (nothing in flight), then the four that arrived meanwhile two by two, one group at a time
      // (with the defaults: [a], [b], [c, d, e]).
      const [a, b, c, d, e] = attempts.map((x) => x.callId);
      expect(settleMany.mock.calls.map(([inputs]) => inputs.map((i) => i.callId))).toEqual([[a], [b, c], [d, e]]);
    });

    it('provider events settled together (decisions.md 16.33): applied ones are duplicates, the others noted with their settlement', async () => {
      const attempts = await Promise.all(['+14155551001', '+14155551002', '+14155551003', '+14155551004'].map((phone) => inFlight(1, 0, phone)));
      await bed.callLog.noteEvent({ provider: 'scripted', eventId: 'seen-before', callId: attempts[3].callId, type: 'ended' });
      const settleMany = jest.spyOn(bed.settlement, 'settleMany');
      const event = (callId: string, eventId: string) => ({ provider: 'scripted', callId, providerCallId: `p-${callId}`, eventId, type: 'ended' as const, at: ENGINE_NOW, result: result('completed', 1_000) });

      const reports = await Promise.all(attempts.map((a, i) => bed.endings.endEvent(event(a.callId, i === 3 ? 'seen-before' : `ended-${i}`))));

      expect(reports.map((r) => r.state)).toEqual(['settled', 'settled', 'settled', 'duplicate']);
      // The first two alone (noted after their settlement, as before); the third with the duplicate, which is left out, noted in its settlement.
      expect(settleMany.mock.calls.map(([inputs]) => inputs.map((i) => i.event?.eventId ?? 'alone'))).toEqual([['alone'], ['alone'], ['ended-2']]);
      for (const [i, a] of attempts.slice(0, 3).entries()) {
        expect(await bed.callLog.eventApplied('scripted', `ended-${i}`)).toBe(true);
        expect(bed.contacts.stored(a.contactId)!.status).toBe('COMPLETED');
      }
      expect(bed.contacts.stored(attempts[3].contactId)!.status).toBe('IN_PROGRESS');
      // A redelivery of a settled event is a duplicate too.
      expect(await bed.endings.endEvent(event(attempts[2].callId, 'ended-2'))).toEqual({ state: 'duplicate' });
    });

    it('a group that cannot be written is settled one by one: the failing ending is deferred, the others are settled', async () => {
      const attempts = await Promise.all(['+14155551001', '+14155551002', '+14155551003', '+14155551004'].map((phone) => inFlight(1, 0, phone)));
      const poisoned = attempts[3].callId; // in the third group, with attempts[2]
      const settleMany = bed.settlement.settleMany.bind(bed.settlement);
      bed.settlement.settleMany = async (inputs) => {
        if (inputs.some((i) => i.callId === poisoned)) throw new Error('connection reset');
        return settleMany(inputs);
      };

      const reports = await Promise.all(attempts.map((a) => bed.endings.end(a.callId, result('completed', 1_000))));

      expect(reports.map((r) => r.state)).toEqual(['settled', 'settled', 'settled', 'deferred']);
      expect(bed.settlements.deferred.map((d) => d.callId)).toEqual([poisoned]);
      expect(bed.contacts.stored(attempts[2].contactId)!.status).toBe('COMPLETED');
      expect(bed.contacts.stored(attempts[3].contactId)!.status).toBe('IN_PROGRESS');
    });
  });
  describe('circuit breaker (decisions.md 16.26)', () => {
    const breaker = { circuitBreakerWindow: 10, circuitBreakerFailurePercent: 50 };
    const status = () => bed.campaigns.rows.get(CID)!;

    let callNo = 0;
    /** One call from `from` settled with `outcome`, a second after the previous one (the window is the latest calls). */
    async function call(outcome: CallOutcome, from = ENGINE_NUMBER) {
      bed.clock.advance(1000);
      const attempt = await inFlight(1, 0, `+1415555${String(2000 + ++callNo)}`, from);
      await settle(attempt, result(outcome, outcome === 'completed' ? 30_000 : 0));
    }
    async function settleMany(outcomes: CallOutcome[]) {
      for (const outcome of outcomes) await call(outcome);
    }

    it('pauses the campaign (circuit_open) once more than the percentage of a full window failed at the carrier', async () => {
      await setup({ settings: breaker });
      await settleMany(['completed', 'completed', 'completed', 'completed', 'carrier_failure', 'carrier_failure', 'carrier_failure', 'carrier_failure', 'carrier_failure']);
      expect(status().status).toBe('RUNNING'); // 9 calls: the window is not full yet
      await settleMany(['carrier_failure']);
      expect(status()).toMatchObject({ status: 'PAUSED', pauseReason: 'circuit_open' });
    });

    it('judges the window per carrier: one failing carrier trips it while another carrier of the campaign does well', async () => {
      await setup({ settings: breaker });
      const OTHER = '+14155550199';
      bed.phones.numbers.add({ id: 'number-2', workspaceId: ENGINE_WS, e164: OTHER, carrier: 'twilio' });
      await bed.attached.attach(CID, 'number-2');
      // The twilio number: 4 completed, then 6 carrier failures; the sandbox number: 10 completed,
      // interleaved. The campaign's latest 10 calls are 5 failures out of 10 (50 %: closed), but
      // twilio's latest 10 are 6 out of 10 (60 %): the breaker opens on twilio's last failure.
      for (let i = 0; i < 10; i++) {
        if (i === 9) expect(status().status).toBe('RUNNING');
        await call(i >= 4 ? 'carrier_failure' : 'completed', OTHER);
        if (i < 9) await call('completed');
      }
      expect(status()).toMatchObject({ status: 'PAUSED', pauseReason: 'circuit_open' });
    });

    it('a carrier is judged only on its own calls: failures at another carrier do not fill its window', async () => {
      await setup({ settings: breaker });
      const OTHER = '+14155550199';
      bed.phones.numbers.add({ id: 'number-2', workspaceId: ENGINE_WS, e164: OTHER, carrier: 'twilio' });
      await bed.attached.attach(CID, 'number-2');
      // Sandbox: 5 completed, then 5 failures (its window: 50 %, closed). Twilio: 5 failures between
      // them (its window is not full: not judged). The campaign's latest 10 calls are all failures,
      // which would have opened a campaign-wide window.
      await settleMany(['completed', 'completed', 'completed', 'completed', 'completed']);
      for (let i = 0; i < 5; i++) {
        await call('carrier_failure', OTHER);
        await call('carrier_failure');
      }
      expect(status()).toMatchObject({ status: 'RUNNING', pauseReason: null });
    });

    it('stays closed at the percentage, and for failures that are not the carrier\'s', async () => {
      await setup({ settings: breaker });
      await settleMany([...Array(5).fill('completed'), ...Array(5).fill('carrier_failure')]);
      await settleMany(Array(10).fill('busy'));
      expect(status()).toMatchObject({ status: 'RUNNING', pauseReason: null });
    });
  });
});
