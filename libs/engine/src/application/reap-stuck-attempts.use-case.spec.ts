import { ENGINE_AGENT, ENGINE_NUMBER, ENGINE_WS, EngineTestBed, engineTestBed } from '../testing';
import { attemptJob, attemptJobId, dispatchJob } from './engine-jobs';
import { MESSAGE_REPORT_PATIENCE_MS, MessageAttempt } from './message-attempt';
import { NO_PROVIDER_RECORD, ReapStuckAttempts } from './reap-stuck-attempts.use-case';

/* ReapStuckAttempts over in-memory fakes: attempts past their deadline are settled from the provider's record of the call; the others stay. */

const CID = 'campaign-1';
/** Claim deadline: the agent's 300 s + REAPER_GRACE_SECONDS 120. */
const DEADLINE_MS = 420_000;

describe('ReapStuckAttempts', () => {
  let bed: EngineTestBed;

  beforeEach(() => {
    bed = engineTestBed();
    bed.addCampaign({ id: CID, reservedConcurrency: 5 });
  });

  /** Claims a contact through the dispatcher; with `dialled`, its call has started (the worker then died). */
  async function stuck(phone: string, options: { dialled: boolean; attempts?: number }) {
    const prior = (options.attempts ?? 1) - 1;
    const contact = bed.contacts.seed(ENGINE_WS, CID, {
      phone,
      ...(prior > 0 ? { status: 'RETRY_SCHEDULED' as const, attempts: prior, attemptSeq: prior, nextAttemptAt: '2026-11-18T08:00:00.000Z' } : {}),
    });
    await bed.dispatch.execute(CID);
    const { attemptSeq } = bed.contacts.stored(contact.id)!;
    let callId: string | null = null;
    if (options.dialled) {
      callId = (
        await bed.callLog.start({
          workspaceId: ENGINE_WS,
          campaignId: CID,
          contactId: contact.id,
          agentId: ENGINE_AGENT,
          fromNumber: ENGINE_NUMBER,
          toNumber: phone,
          attemptNumber: 1,
          kind: 'campaign',
        })
      ).callId;
      await bed.executionRepo.markCallStarted(contact.id, attemptSeq, callId);
    }
    bed.outbox.jobs.length = 0;
    return { id: contact.id, attemptSeq, callId };
  }

  it('an attempt past its deadline whose call ENDED at the provider: settled with the provider\'s outcome, not failed', async () => {
    const attempt = await stuck('+14155551001', { dialled: true });
    const ended = await bed.voice.next({ callId: attempt.callId!, workspaceId: 'w1', from: ENGINE_NUMBER, to: '+14155551001', agentId: ENGINE_AGENT, maxDurationSecs: 300, variables: {} });
    bed.voice.placed.set(attempt.callId!, ended);
    bed.clock.advance(DEADLINE_MS + 1000);

    expect(await bed.reaper.execute()).toEqual({ recovered: 1, reaped: 0, released: 0, waiting: 0 });

    expect(bed.voice.lookups).toEqual([attempt.callId]);
    expect(bed.calls.rows.get(attempt.callId!)).toMatchObject({ status: 'ENDED', outcome: 'completed', durationMs: 61_000, transcript: 'Agent: hello' });
    expect(bed.contacts.stored(attempt.id)).toMatchObject({ status: 'COMPLETED', lastOutcome: 'completed', attemptDeadlineAt: null });
    expect(bed.debits.debits).toHaveLength(1); // the conversation is billed, and its contact is never called again
    expect(bed.scheduler.wakeNows).toEqual([CID]);
  });

  it('an attempt past its deadline whose call the provider has no record of: the call FAILS as no_provider_record, the contact goes to a retry', async () => {
    const attempt = await stuck('+14155551001', { dialled: true });
    bed.clock.advance(DEADLINE_MS + 1000);
    const now = bed.clock.now();

    expect(await bed.reaper.execute()).toEqual({ recovered: 0, reaped: 1, released: 0, waiting: 0 });

    expect(bed.calls.rows.get(attempt.callId!)).toMatchObject({
      status: 'FAILED',
      outcome: 'carrier_failure',
      providerDisposition: NO_PROVIDER_RECORD,
      durationMs: 0,
      endedAt: now,
    });
    expect(bed.contacts.stored(attempt.id)).toMatchObject({
      status: 'RETRY_SCHEDULED',
      lastOutcome: 'carrier_failure',
      nextAttemptAt: new Date(now.getTime() + 60 * 60_000).toISOString(),
      attemptDeadlineAt: null,
    });
    expect(bed.debits.debits).toEqual([]);
    expect(bed.scheduler.wakeNows).toEqual([CID]);
  });

  it('an attempt whose call is still in progress at the provider, or whose provider does not answer, is left for the next run', async () => {
    const inProgress = await stuck('+14155551001', { dialled: true });
    const unanswered = await stuck('+14155551002', { dialled: true });
    bed.voice.lookup = async (callId) => {
      if (callId === unanswered.callId) throw new Error('provider timeout');
      return { state: 'in_progress' };
    };
    bed.clock.advance(DEADLINE_MS + 1000);

    expect(await bed.reaper.execute()).toEqual({ recovered: 0, reaped: 0, released: 0, waiting: 2 });

    for (const attempt of [inProgress, unanswered]) {
      expect(bed.contacts.stored(attempt.id)).toMatchObject({ status: 'IN_PROGRESS', currentCallId: attempt.callId });
      expect(bed.calls.rows.get(attempt.callId!)!.status).toBe('QUEUED');
    }
  });

  it('a reaped attempt with no retries left FAILS the contact', async () => {
    const attempt = await stuck('+14155551001', { dialled: true, attempts: 3 });
    expect(bed.contacts.stored(attempt.id)!.attempts).toBe(3);
    bed.clock.advance(DEADLINE_MS + 1000);

    await bed.reaper.execute();

    expect(bed.contacts.stored(attempt.id)!.status).toBe('FAILED');
  });

  it('a claimed attempt that never dialled is given back (not counted) and the dispatcher is woken through the outbox', async () => {
    const first = await stuck('+14155551001', { dialled: false });
    const retry = await stuck('+14155551002', { dialled: false, attempts: 2 });
    bed.clock.advance(DEADLINE_MS + 1000);
    const now = bed.clock.now();

    expect(await bed.reaper.execute()).toEqual({ recovered: 0, reaped: 0, released: 2, waiting: 0 });

    expect(bed.contacts.stored(first.id)).toMatchObject({ status: 'PENDING', attempts: 0, nextAttemptAt: null, attemptDeadlineAt: null });
    expect(bed.contacts.stored(retry.id)).toMatchObject({ status: 'RETRY_SCHEDULED', attempts: 1, nextAttemptAt: now.toISOString() });
    expect(bed.outbox.jobs).toEqual([dispatchJob(CID), dispatchJob(CID)]);
    expect(bed.calls.rows.size).toBe(0);
  });

  it('leaves attempts inside their deadline alone (and one exactly at it)', async () => {
    const dialled = await stuck('+14155551001', { dialled: true });
    const waiting = await stuck('+14155551002', { dialled: false });
    bed.clock.advance(DEADLINE_MS);

    expect(await bed.reaper.execute()).toEqual({ recovered: 0, reaped: 0, released: 0, waiting: 0 });

    expect(bed.contacts.stored(dialled.id)).toMatchObject({ status: 'IN_PROGRESS', attemptSeq: 1, currentCallId: dialled.callId });
    expect(bed.contacts.stored(waiting.id)!.status).toBe('IN_PROGRESS');
    expect(bed.calls.rows.get(dialled.callId!)!.status).toBe('QUEUED');
    expect(bed.outbox.jobs).toEqual([]);
  });

  it('skips an attempt that settled or moved on between the search and its lock', async () => {
    const attempt = await stuck('+14155551001', { dialled: true });
    bed.clock.advance(DEADLINE_MS + 1000);
    bed.executionRepo.findStuck = async () => [{ contactId: attempt.id, attemptSeq: attempt.attemptSeq - 1 }];

    expect(await bed.reaper.execute()).toEqual({ recovered: 0, reaped: 0, released: 0, waiting: 0 });
    expect(bed.contacts.stored(attempt.id)!.status).toBe('IN_PROGRESS');
  });

  it('re-checks the deadline under the lock: an attempt the search returned but whose deadline is still ahead stays', async () => {
    const attempt = await stuck('+14155551001', { dialled: true });
    bed.clock.advance(DEADLINE_MS - 1000);
    bed.executionRepo.findStuck = async () => [{ contactId: attempt.id, attemptSeq: attempt.attemptSeq }];

    expect(await bed.reaper.execute()).toEqual({ recovered: 0, reaped: 0, released: 0, waiting: 0 });
    expect(bed.contacts.stored(attempt.id)!.status).toBe('IN_PROGRESS');
    expect(bed.calls.rows.get(attempt.callId!)!.status).toBe('QUEUED');
  });

  it('a claim not dialled for the idle time gets its attempt job again, under its own id; a dialled or younger claim and a message leg do not', async () => {
    const lost = await stuck('+14155551001', { dialled: false });
    const dialled = await stuck('+14155551002', { dialled: true });
    bed.clock.advance(60_000);
    const young = await stuck('+14155551003', { dialled: false });
    bed.addCampaign({ id: 'wa', draft: { channel: 'WHATSAPP' } });
    const now = bed.clock.now();
    const message = bed.contacts.seed(ENGINE_WS, 'wa', { phone: '+14155551004', status: 'IN_PROGRESS', attempts: 1, attemptSeq: 1, attemptStartedAt: new Date(now.getTime() - 120_000), attemptDeadlineAt: new Date(now.getTime() + 60_000) });
    bed.clock.advance(1);

    bed.failedJobs.failed.add(attemptJobId(lost.id, lost.attemptSeq)); // its job used up its tries (16.34)
    bed.failedJobs.failed.add(attemptJobId(young.id, young.attemptSeq));
    expect(await bed.reaper.resumeUndialled(60_000)).toBe(1);
    expect(bed.outbox.jobs).toEqual([attemptJob(lost.id, lost.attemptSeq)]);
    // The failed job of the resumed claim is put back (an add under its id alone would be ignored); the younger claim's is not.
    expect(bed.failedJobs.retried).toEqual([attemptJobId(lost.id, lost.attemptSeq)]);
    // Nothing else moved: the attempt job re-checks the claim under its lock when it runs.
    expect(bed.contacts.stored(lost.id)).toMatchObject({ status: 'IN_PROGRESS', attemptSeq: lost.attemptSeq, attempts: 1 });
    for (const other of [dialled, young]) expect(bed.contacts.stored(other.id)!.status).toBe('IN_PROGRESS');
    expect(bed.contacts.stored(message.id)!.status).toBe('IN_PROGRESS');

    // Younger than the idle time: nothing (the claim that was just made keeps its own job).
    bed.outbox.jobs.length = 0;
    expect(await bed.reaper.resumeUndialled(120_000)).toBe(0);
    expect(bed.outbox.jobs).toEqual([]);

    // The re-added job dials the claim once.
    expect(await bed.attempt.execute(lost.id, lost.attemptSeq)).toMatchObject({ state: 'placed' });
    expect(bed.contacts.stored(lost.id)!.currentCallId).not.toBeNull();
    expect(await bed.reaper.resumeUndialled(0)).toBe(1); // only `young` now
  });

  it('message legs IN_PROGRESS for MESSAGE_REPORT_PATIENCE_MS since their claim are settled as final (decisions.md 47.17); younger legs, voice claims and settled contacts are not', async () => {
    bed.addCampaign({ id: 'wa', draft: { channel: 'WHATSAPP' } });
    bed.addCampaign({ id: 'email', draft: { channel: 'EMAIL' } });
    const now = bed.clock.now().getTime();
    const leg = (campaignId: string, phone: string, claimedAgoMs: number, status: 'IN_PROGRESS' | 'COMPLETED' = 'IN_PROGRESS') =>
      bed.contacts.seed(ENGINE_WS, campaignId, { phone, status, attempts: 1, attemptSeq: 1, attemptStartedAt: new Date(now - claimedAgoMs), attemptDeadlineAt: new Date(now + 60_000) }).id;
    const overdue = leg('wa', '+14155551011', MESSAGE_REPORT_PATIENCE_MS + 1);
    const failing = leg('email', '+14155551012', MESSAGE_REPORT_PATIENCE_MS + 5_000);
    const sending = leg('wa', '+14155551013', MESSAGE_REPORT_PATIENCE_MS + 2);
    leg('wa', '+14155551014', MESSAGE_REPORT_PATIENCE_MS - 1); // younger than the patience
    leg('wa', '+14155551015', MESSAGE_REPORT_PATIENCE_MS + 1, 'COMPLETED'); // settled
    leg(CID, '+14155551016', MESSAGE_REPORT_PATIENCE_MS + 1); // a voice claim never dialled: resumeUndialled's
    const executed: Array<{ contactId: string; attemptSeq: number; final: boolean }> = [];
    const messages = {
      execute: async (contactId: string, attemptSeq: number, options: { final?: boolean }) => {
        executed.push({ contactId, attemptSeq, final: options.final === true });
        if (contactId === failing) throw new Error('connection reset');
        return { state: contactId === sending ? 'in_flight' : 'settled' };
      },
    } as unknown as MessageAttempt;
    const reaper = new ReapStuckAttempts(bed.execution, bed.settlement, bed.voice, bed.scheduler, bed.outbox, bed.uow, bed.clock, messages, bed.failedJobs);

    expect(await reaper.settleOverdueLegs()).toBe(1);
    expect(executed).toEqual([
      { contactId: sending, attemptSeq: 1, final: true },
      { contactId: overdue, attemptSeq: 1, final: true },
      { contactId: failing, attemptSeq: 1, final: true },
    ]);
  });

  it('sweep wakes every RUNNING campaign at once', async () => {
    bed.addCampaign({ id: 'paused', status: 'PAUSED' });
    bed.addCampaign({ id: 'campaign-2' });

    expect(await bed.reaper.sweep()).toBe(2);
    expect(bed.scheduler.wakeIns).toEqual([
      { campaignId: CID, delayMs: 0 },
      { campaignId: 'campaign-2', delayMs: 0 },
    ]);
  });
});
