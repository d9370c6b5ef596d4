import { AppError } from '@outreach/core';
import { leadFinalJob } from '@outreach/results';
import { VoiceCallResult } from '@outreach/telephony';
import { ENGINE_AGENT, ENGINE_NOW, ENGINE_NUMBER, ENGINE_WS, EngineTestBed, engineTestBed } from '../testing';
import { dispatchJob, fromSettlePayload, SettlePayload, toSettlePayload } from './engine-jobs';


/* ExecuteAttempt over in-memory fakes: re-checks, the call through the VoiceProvider port, the settlement, duplicates. */

const CID = 'campaign-1';
const PHONE = '+14155551001';

describe('ExecuteAttempt', () => {
  let bed: EngineTestBed;

  /** Claims the campaign's contact through the dispatcher (attemptSeq 1) and returns its id. */
  async function claimed(options: { source?: 'CSV' | 'API' } = {}): Promise<string> {
    bed.addCampaign({ id: CID, draft: { source: options.source ?? 'CSV', variableMap: { first_name: 'First Name' } } });
    const contact = bed.contacts.seed(ENGINE_WS, CID, { phone: PHONE, name: 'Ann Lee', fields: { 'First Name': 'Ann', plan: 'gold' } });
    expect((await bed.dispatch.execute(CID)).claimed).toBe(1);
    bed.outbox.jobs.length = 0;
    return contact.id;
  }

  beforeEach(() => {
    bed = engineTestBed();
  });

  it('places the call through the voice provider from a campaign number, with the agent limit and the prompt variables; its ended event settles it', async () => {
    const id = await claimed();

    const report = await bed.attempt.execute(id, 1);
    expect(report).toEqual({ state: 'placed', providerCallId: expect.stringMatching(/^scripted-/) });
    const callId = bed.voice.requests[0].callId;
    expect(bed.calls.rows.get(callId)).toMatchObject({ status: 'DIALING', providerCallId: report.state === 'placed' ? report.providerCallId : null });
    expect(bed.contacts.stored(id)).toMatchObject({ status: 'IN_PROGRESS' }); // nothing settled before the provider says so
    expect(bed.timeline.recorded.typesOf(id)).toEqual(['claimed', 'attempt_started']);
    expect(bed.timeline.recorded.events[1].event).toEqual({
      contactId: id,
      type: 'attempt_started',
      at: bed.clock.now(),
      detail: { attempt: 1, callId, toNumber: bed.voice.requests[0].to },
    });
    await bed.voice.settled();
    expect(bed.voice.delivered).toEqual([{ callId, ok: true }]);

    expect(bed.voice.requests).toHaveLength(1);
    const request = bed.voice.requests[0];
    expect(request).toEqual({
      callId: expect.any(String),
      workspaceId: 'ws-engine',
      from: ENGINE_NUMBER,
      to: PHONE,
      agentId: ENGINE_AGENT,
      maxDurationSecs: 300,
      variables: {
        'First Name': 'Ann',
        plan: 'gold',
        first_name: 'Ann',
        agent_name: 'Ava',
        caller_phone: ENGINE_NUMBER,
        campaign_name: 'Campaign campaign-1',
        workspace_name: 'Workspace ws-engine',
        contact_name: 'Ann Lee',
        contact_phone: PHONE,
        timezone: 'UTC',
        current_date: '2026-11-18',
        current_day: 'Wednesday',
        current_time: '10:00',
      },
    });
    expect(bed.calls.rows.get(request.callId)).toMatchObject({
      workspaceId: ENGINE_WS,
      campaignId: CID,
      contactId: id,
      fromNumber: ENGINE_NUMBER,
      toNumber: PHONE,
      attemptNumber: 1,
      kind: 'campaign',
      status: 'ENDED',
      outcome: 'completed',
    });
    // The scripted provider answers a completed 61 s call: 2 started minutes at 10.
    expect(bed.debits.debits).toEqual([expect.objectContaining({ amountMinor: 20, reference: callId })]);
    expect(bed.contacts.stored(id)).toMatchObject({ status: 'COMPLETED', currentCallId: request.callId, lastOutcome: 'completed' });
    // The same event delivered again changes nothing.
    const event = { type: 'ended' as const, provider: 'scripted', eventId: `${callId}:ended`, callId, providerCallId: 'provider-1', at: new Date(), result: bed.voice.placed.get(callId)! };
    expect(await bed.callEvents.receive(event)).toEqual({ state: 'duplicate' });
    expect(await bed.callEvents.receive({ ...event, eventId: 'another-id' })).toMatchObject({ state: 'settled', settled: { contactStatus: null, debitedMinor: 0 } });
    expect(bed.debits.debits).toHaveLength(1);
  });

  it('a duplicate of a finished job is stale: no second call, no second debit', async () => {
    const id = await claimed();
    await bed.attempt.execute(id, 1);
    await bed.voice.settled();
    const jobsAfterFirst = bed.outbox.jobs.length;

    expect(await bed.attempt.execute(id, 1)).toEqual({ state: 'stale' });
    expect(bed.voice.requests).toHaveLength(1);
    expect(bed.calls.rows.size).toBe(1);
    expect(bed.debits.debits).toHaveLength(1);
    expect(bed.outbox.jobs).toHaveLength(jobsAfterFirst);
  });

  it('a job for an older attemptSeq, or for an unknown contact, is stale', async () => {
    const id = await claimed();
    expect(await bed.attempt.execute(id, 0)).toEqual({ state: 'stale' });
    expect(await bed.attempt.execute('nobody', 1)).toEqual({ state: 'stale' });
    expect(bed.voice.requests).toEqual([]);
    expect(bed.contacts.stored(id)!.status).toBe('IN_PROGRESS');
  });

  it('a replayed job while the provider still has the call: left to its events and poll, nobody is dialled twice', async () => {
    const id = await claimed();
    let release!: (r: VoiceCallResult) => void;
    const scripted = bed.voice.next;
    bed.voice.next = (request) => new Promise((resolve) => (release = resolve)).then(() => scripted(request));
    expect((await bed.attempt.execute(id, 1)).state).toBe('placed');

    expect((await bed.attempt.execute(id, 1)).state).toBe('placed');
    expect(bed.voice.requests).toHaveLength(1);
    expect(bed.calls.rows.size).toBe(1);

    release(undefined as never);
    await bed.voice.settled();
    expect(bed.contacts.stored(id)!.status).toBe('COMPLETED');
    // Run again once the call ended: the attempt has moved on, nothing happens twice.
    expect(await bed.attempt.execute(id, 1)).toEqual({ state: 'stale' });
    expect(bed.debits.debits).toHaveLength(1);
  });

  /** The attempt's Call was started by a run whose worker then died (nothing settled). */
  async function startedByADeadWorker(id: string): Promise<string> {
    const { callId } = await bed.callLog.start({
      workspaceId: ENGINE_WS,
      campaignId: CID,
      contactId: id,
      agentId: ENGINE_AGENT,
      fromNumber: ENGINE_NUMBER,
      toNumber: PHONE,
      attemptNumber: 1,
      kind: 'campaign',
    });
    await bed.executionRepo.markCallStarted(id, 1, callId);
    return callId;
  }

  it('a job re-run after its worker died, the call ended at the provider: settled with the provider\'s outcome, no second dial', async () => {
    const id = await claimed();
    const callId = await startedByADeadWorker(id);
    const ended = await bed.voice.next({ callId, workspaceId: 'w1', from: ENGINE_NUMBER, to: PHONE, agentId: ENGINE_AGENT, maxDurationSecs: 300, variables: {} });
    bed.voice.placed.set(callId, ended); // the provider's record

    const report = await bed.attempt.execute(id, 1);

    expect(report).toMatchObject({ state: 'settled', settled: { contactStatus: 'COMPLETED', debitedMinor: 20 } });
    expect(bed.voice.lookups).toEqual([callId]);
    expect(bed.voice.requests).toEqual([]);
    expect(bed.calls.rows.get(callId)).toMatchObject({ status: 'ENDED', outcome: 'completed', durationMs: 61_000, transcript: 'Agent: hello' });
  });

  it('a job re-run for a call the provider never accepted: placed now, once, with the same call id', async () => {
    const id = await claimed();
    const callId = await startedByADeadWorker(id);

    const report = await bed.attempt.execute(id, 1);

    expect(report.state).toBe('placed');
    expect(bed.voice.requests.map((r) => ({ callId: r.callId, to: r.to, from: r.from }))).toEqual([{ callId, to: PHONE, from: ENGINE_NUMBER }]);
    await bed.voice.settled();
    expect(bed.contacts.stored(id)!.status).toBe('COMPLETED');
    expect(bed.calls.rows.size).toBe(1);
  });

  it('a job re-run for a call never accepted, its campaign since stopped: the call FAILS as not placed, no dial', async () => {
    const id = await claimed();
    const callId = await startedByADeadWorker(id);
    bed.campaigns.rows.get(CID)!.status = 'CANCELED';

    await bed.attempt.execute(id, 1);

    expect(bed.voice.requests).toEqual([]);
    expect(bed.calls.rows.get(callId)).toMatchObject({ status: 'FAILED', outcome: 'carrier_failure', providerDisposition: 'not_placed' });
  });

  it('still dials for a PAUSED campaign (attempts in flight finish)', async () => {
    const id = await claimed();
    bed.campaigns.rows.get(CID)!.status = 'PAUSED';

    expect((await bed.attempt.execute(id, 1)).state).toBe('placed');
    expect(bed.voice.requests).toHaveLength(1);
    await bed.voice.settled();
    expect(bed.contacts.stored(id)!.status).toBe('COMPLETED');
  });

  it('gives the attempt back when the campaign no longer dials (canceled): PENDING again, the attempt not counted, no call', async () => {
    const id = await claimed();
    bed.campaigns.rows.get(CID)!.status = 'CANCELED';

    expect(await bed.attempt.execute(id, 1)).toEqual({ state: 'released' });
    expect(bed.contacts.stored(id)).toMatchObject({ status: 'PENDING', attempts: 0, attemptDeadlineAt: null });
    expect(bed.voice.requests).toEqual([]);
    expect(bed.calls.rows.size).toBe(0);
  });

  it('a number put on the do-not-call list since the claim: DO_NOT_CALL, no call, a dispatch wake-up', async () => {
    const id = await claimed();
    await bed.dnc.add(ENGINE_WS, { phone: PHONE });

    expect(await bed.attempt.execute(id, 1)).toEqual({ state: 'do_not_call' });
    expect(bed.contacts.stored(id)).toMatchObject({ status: 'DO_NOT_CALL', attempts: 0, lastOutcome: 'do_not_call' });
    expect(bed.voice.requests).toEqual([]);
    expect(bed.outbox.jobs).toEqual([dispatchJob(CID)]);
  });

  describe('attempts that run together start together (decisions.md 16.32)', () => {
    const PHONES = ['+14155551005', '+14155551006', '+14155551007', '+14155551008', '+14155551009'];

    /** Five contacts of the campaign, claimed together (attemptSeq 1); their ids in PHONES order. */
    async function claimedFive(): Promise<string[]> {
      bed.addCampaign({ id: CID, reservedConcurrency: 5, draft: { source: 'CSV' } });
      const ids = PHONES.map((phone) => bed.contacts.seed(ENGINE_WS, CID, { phone }).id);
      expect((await bed.dispatch.execute(CID)).claimed).toBe(5);
      return ids;
    }

    it('ENGINE_GROUPS_IN_FLIGHT and ENGINE_GROUP_MAX (decisions.md 16.37): one start group at a time of at most two attempts', async () => {
      bed = engineTestBed({ groupsInFlight: 1, groupMax: 2 });
      const ids = await claimedFive();
      const startMany = jest.spyOn(bed.callLog, 'startMany');

      const reports = await Promise.all(ids.map((id) => bed.attempt.execute(id, 1)));

      expect(reports.map((r) => r.state)).toEqual(['placed', 'placed', 'placed', 'placed', 'placed']);
      // ids[0] alone; then [1, 2] and [3, 4], one at a time (the defaults put [2, 3, 4] together after [0] and [1]).
      expect(startMany.mock.calls.map(([inputs]) => inputs.map((i) => i.contactId))).toEqual([[ids[1], ids[2]], [ids[3], ids[4]]]);
      expect(bed.voice.requests.map((r) => r.to).sort()).toEqual([...PHONES].sort());
    });

    it('the first starts alone, the ones arriving meanwhile in one transaction: one call each, placed and accepted; a stale or listed one takes its own path', async () => {
      const ids = await claimedFive();
      await bed.dnc.add(ENGINE_WS, { phone: PHONES[4] });
      const startMany = jest.spyOn(bed.callLog, 'startMany');
      const progressMany = jest.spyOn(bed.callLog, 'progressMany');
      const progress = jest.spyOn(bed.callLog, 'progress');

      const reports = await Promise.all([...ids.map((id) => bed.attempt.execute(id, 1)), bed.attempt.execute(ids[0], 7)]);

      expect(reports.map((r) => r.state)).toEqual(['placed', 'placed', 'placed', 'placed', 'do_not_call', 'stale']);
      // Two start groups in flight: ids[0] and ids[1] alone, then the rest together (the listed one and the stale one left out of the calls).
      expect(startMany.mock.calls.map(([inputs]) => inputs.map((i) => i.contactId))).toEqual([[ids[2], ids[3]]]);
      // Each call accepted once: alone (progress) or with others (progressMany).
      const accepted = [...progress.mock.calls.filter(([, step]) => step === 'accepted').map(([callId]) => callId), ...progressMany.mock.calls.flatMap(([steps]) => steps.map((step) => step.callId))];
      expect(accepted.sort()).toEqual([...bed.calls.rows.keys()].sort());
      expect(bed.voice.requests.map((r) => r.to).sort()).toEqual(PHONES.slice(0, 4));
      for (const id of ids.slice(0, 4)) {
        const contact = bed.contacts.stored(id)!;
        expect(bed.calls.rows.get(contact.currentCallId!)).toMatchObject({ contactId: id, attemptNumber: 1, fromNumber: ENGINE_NUMBER, toNumber: contact.phone });
        expect(bed.voice.requests.filter((r) => r.callId === contact.currentCallId)).toHaveLength(1);
        expect(bed.timeline.recorded.typesOf(id).slice(0, 2)).toEqual(['claimed', 'attempt_started']);
        expect(bed.timeline.recorded.typesOf(id).filter((type) => type === 'attempt_started')).toHaveLength(1);
      }
      expect(bed.contacts.stored(ids[4])).toMatchObject({ status: 'DO_NOT_CALL' });
      expect(bed.calls.rows.size).toBe(4);
    });

    it('a group that cannot be written starts each of its attempts on its own', async () => {
      const ids = await claimedFive();
      bed.callLog.startMany = async () => {
        throw new Error('connection reset');
      };

      const reports = await Promise.all(ids.map((id) => bed.attempt.execute(id, 1)));

      expect(reports.map((r) => r.state)).toEqual(['placed', 'placed', 'placed', 'placed', 'placed']);
      expect(bed.voice.requests.map((r) => r.to).sort()).toEqual(PHONES);
      expect(bed.calls.rows.size).toBe(5);
      for (const id of ids) expect(bed.timeline.recorded.typesOf(id).filter((type) => type === 'attempt_started')).toHaveLength(1);
    });
  });

  it('a do-not-call API lead also gets its lead-final job', async () => {
    const id = await claimed({ source: 'API' });
    await bed.dnc.add(ENGINE_WS, { phone: PHONE });

    await bed.attempt.execute(id, 1);

    expect(bed.outbox.jobs).toEqual([dispatchJob(CID), leadFinalJob(id)]);
  });

  it('without a usable number (carrier disabled) records a carrier failure without calling, and the contact is retried', async () => {
    const id = await claimed();
    bed.phones.numbers.carriers.disabled.add(`${ENGINE_WS}/sandbox`);

    const report = await bed.attempt.execute(id, 1);

    expect(bed.voice.requests).toEqual([]);
    expect(report).toMatchObject({ state: 'settled', settled: { contactStatus: 'RETRY_SCHEDULED', debitedMinor: 0 } });
    expect(report.state === 'settled' && report.settled.call).toMatchObject({ status: 'FAILED', outcome: 'carrier_failure', providerDisposition: 'no_usable_number', fromNumber: null });
    expect(bed.contacts.stored(id)).toMatchObject({ status: 'RETRY_SCHEDULED', nextAttemptAt: new Date(ENGINE_NOW.getTime() + 60 * 60_000).toISOString() });
  });

  it('a provider that refuses the call (nothing dialled) is a carrier failure: the call FAILS and the contact is retried', async () => {
    const id = await claimed();
    bed.voice.accept = async () => {
      // What a real adapter throws after its retries (provider-http.ts).
      throw new AppError('provider_error', { message: 'twilio refused the request (502)', upstreamStatus: 502 });
    };

    const report = await bed.attempt.execute(id, 1);

    expect(report.state === 'settled' && report.settled.call).toMatchObject({ status: 'FAILED', providerDisposition: 'provider_error' });
    expect(bed.contacts.stored(id)!.status).toBe('RETRY_SCHEDULED');
  });

  it('placing fails for a reason of ours (the database unreachable during the cut): nothing ends, the job fails to run again; the re-run places the call once (decisions.md 16.29)', async () => {
    const id = await claimed();
    const unreachable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    bed.voice.accept = async () => {
      throw unreachable;
    };

    await expect(bed.attempt.execute(id, 1)).rejects.toBe(unreachable);
    const [call] = [...bed.calls.rows.values()];
    expect(call).toMatchObject({ status: 'QUEUED', outcome: null });
    expect(bed.contacts.stored(id)).toMatchObject({ status: 'IN_PROGRESS', currentCallId: call.id });

    bed.voice.accept = null;
    const report = await bed.attempt.execute(id, 1);
    expect(report.state).toBe('placed');
    // Placed once (the scripted provider records what it accepted), with the call id of the first run.
    expect(bed.voice.requests.map((r) => r.callId)).toEqual([call.id]);
    await bed.voice.settled();
    expect(bed.contacts.stored(id)!.status).toBe('COMPLETED');
    expect(bed.calls.rows.size).toBe(1);
  });

  /** Makes every settlement fail as if the database were gone, until `restore()` is called. */
  function databaseDown(): { restore: () => void } {
    const settle = bed.settlement.settle.bind(bed.settlement);
    bed.settlement.settle = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    };
    return { restore: () => (bed.settlement.settle = settle) };
  }

  it('an ended event whose settlement fails (database unreachable) hands the outcome to a settle job; that job settles it once', async () => {
    const id = await claimed({ source: 'API' });
    const outage = databaseDown();

    expect((await bed.attempt.execute(id, 1)).state).toBe('placed');
    await bed.voice.settled();

    expect(bed.voice.delivered).toEqual([{ callId: expect.any(String), ok: true }]); // accepted: the settle job carries it
    expect(bed.contacts.stored(id)).toMatchObject({ status: 'IN_PROGRESS' }); // the slot is held, the contact is not retried
    const [deferred] = bed.settlements.deferred;
    expect(deferred).toMatchObject({ contactId: id, attemptSeq: 1, campaignId: CID, result: { outcome: 'completed', durationMs: 61_000, transcript: 'Agent: hello' } });
    // The payload survives the queue (JSON) intact.
    expect(fromSettlePayload(JSON.parse(JSON.stringify(toSettlePayload(deferred))) as SettlePayload)).toEqual(deferred);

    outage.restore();
    const settled = await bed.settleDeferred.execute(deferred);
    expect(settled).toMatchObject({ state: 'settled', settled: { contactStatus: 'COMPLETED', debitedMinor: 20 } });
    expect(bed.calls.rows.get(deferred.callId)).toMatchObject({ status: 'ENDED', outcome: 'completed', durationMs: 61_000 });
    expect(bed.outbox.jobs).toContainEqual(leadFinalJob(id, deferred.callId));
    // A second run of the job (or the reaper got there first) changes nothing.
    await bed.settleDeferred.execute(deferred);
    expect(bed.debits.debits).toHaveLength(1);
    expect(bed.voice.requests).toHaveLength(1);
  });

  it('when the settle job cannot be stored either, the event is refused (the provider redelivers it); the live-call sweep settles from the provider\'s record, no second dial', async () => {
    const id = await claimed();
    const outage = databaseDown();
    bed.settlements.failing = true;

    await bed.attempt.execute(id, 1);
    await bed.voice.settled();
    expect(bed.voice.delivered).toEqual([{ callId: expect.any(String), ok: false, error: 'connect ECONNREFUSED 127.0.0.1:5432' }]);
    expect(bed.contacts.stored(id)!.status).toBe('IN_PROGRESS');
    outage.restore();
    expect(await bed.liveCalls.execute()).toEqual({ swept: true, asked: 0, ended: 0 }); // not overdue yet
    bed.clock.advance(15_001); // CALL_POLL_INTERVAL_MS since the claim

    expect(await bed.liveCalls.execute()).toEqual({ swept: true, asked: 1, ended: 1 });
    expect(bed.contacts.stored(id)!.status).toBe('COMPLETED');
    expect(bed.debits.debits).toHaveLength(1);
    bed.clock.advance(15_001);
    expect(await bed.liveCalls.execute()).toEqual({ swept: true, asked: 0, ended: 0 }); // a later sweep has nothing to do
    expect(bed.voice.requests).toHaveLength(1);
    expect(bed.debits.debits).toHaveLength(1);
  });

  it('the live-call sweep (decisions.md 16.44): a call going on is asked about once per interval, one the provider lost ends as a carrier failure; young calls are left alone, and so is every call while another process sweeps', async () => {
    bed.addCampaign({ id: CID, reservedConcurrency: 2, draft: { source: 'CSV' } });
    bed.voice.next = () => new Promise(() => undefined); // every call goes on
    const ids: string[] = [];
    for (const phone of ['+14155550102', '+14155550103']) {
      ids.push(bed.contacts.seed(ENGINE_WS, CID, { phone }).id);
      expect((await bed.dispatch.execute(CID)).claimed).toBe(1);
      expect(await bed.attempt.execute(ids[ids.length - 1], 1)).toMatchObject({ state: 'placed' });
      bed.clock.advance(10_000);
    }
    const callIds = ids.map((id) => bed.contacts.stored(id)!.currentCallId!);
    const lookups: string[] = [];
    let lost = false;
    bed.voice.lookup = async (callId) => (lookups.push(callId), lost ? { state: 'unknown' } : { state: 'in_progress' });

    bed.clock.advance(-4_999); // the first call is 15 s old, the second 5 s
    expect(await bed.liveCalls.execute()).toEqual({ swept: true, asked: 1, ended: 0 });
    expect(lookups).toEqual([callIds[0]]);
    bed.clock.advance(5_000);
    expect(await bed.liveCalls.execute()).toEqual({ swept: true, asked: 0, ended: 0 }); // the first asked 5 s ago, the second 10 s old
    bed.lease.held = false; // another process sweeps
    bed.clock.advance(10_000);
    expect(await bed.liveCalls.execute()).toEqual({ swept: false, asked: 0, ended: 0 });
    expect(lookups).toHaveLength(1);
    bed.lease.held = true;
    lost = true;

    expect(await bed.liveCalls.execute()).toEqual({ swept: true, asked: 2, ended: 2 });
    expect(lookups.slice(1).sort()).toEqual([...callIds].sort());
    for (const id of ids) expect(bed.contacts.stored(id)!.status).toBe('RETRY_SCHEDULED');
    expect([...bed.calls.rows.values()].map((c) => [c.status, c.providerDisposition])).toEqual([
      ['FAILED', 'lost_by_provider'],
      ['FAILED', 'lost_by_provider'],
    ]);
    expect(bed.lease.asked.every((a) => a.name === 'live-calls' && a.ms === 15_000)).toBe(true);
  });

  it('does not defer a settlement refused with a coded error', async () => {
    const id = await claimed();
    let tries = 0;
    bed.debits.debit = async () => {
      tries++;
      throw new AppError('invalid_request', { message: 'bad amount' });
    };

    await bed.attempt.execute(id, 1);
    await bed.voice.settled();
    expect(bed.voice.delivered).toEqual([{ callId: expect.any(String), ok: false, error: 'bad amount' }]);
    expect(bed.settlements.deferred).toEqual([]);
    expect(tries).toBe(1);
    expect(bed.contacts.stored(id)!.status).toBe('IN_PROGRESS');
  });
});
