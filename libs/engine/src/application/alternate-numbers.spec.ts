import { leadFinalJob } from '@outreach/results';
import { VoiceCallRequest, VoiceCallResult } from '@outreach/telephony';
import { ENGINE_WS, EngineTestBed, engineTestBed } from '../testing';

/* Alternate numbers (decisions.md 16.19) over in-memory fakes: dispatch, attempt and settlement together. */

const CID = 'campaign-1';
const PRIMARY = '+14155551000';
const ALT_1 = '+14155552001';
const ALT_2 = '+14155553005';
const MIN = 60_000;

/** Unreached on every number but those in `answers`. */
function answering(...answers: string[]) {
  return async (request: VoiceCallRequest): Promise<VoiceCallResult> =>
    answers.includes(request.to)
      ? { outcome: 'completed', providerDisposition: 'completed', providerCallId: `p-${request.callId}`, answeredAt: new Date(), endedAt: new Date(), durationMs: 61_000, transcript: 'Agent: hi', recordingUrl: null }
      : { outcome: 'no_answer', providerDisposition: 'no-answer', providerCallId: `p-${request.callId}`, answeredAt: null, endedAt: new Date(), durationMs: 0, transcript: null, recordingUrl: null };
}

describe('alternate numbers', () => {
  let bed: EngineTestBed;

  beforeEach(() => {
    bed = engineTestBed();
    bed.addCampaign({ id: CID, reservedConcurrency: 5, draft: { source: 'API', retryCount: 1, retryDelaysMinutes: [10], cooldownMinutes: 5 } });
  });

  /** One dispatch run, then every attempt it started. */
  async function dialDue(): Promise<void> {
    bed.outbox.jobs.length = 0;
    await bed.dispatch.execute(CID);
    const attempts = bed.outbox.jobs.filter((j) => j.name === 'attempt').map((j) => j.payload as { contactId: string; attemptSeq: number });
    for (const a of attempts) await bed.attempt.execute(a.contactId, a.attemptSeq);
    await bed.voice.settled();
  }

  it('a primary number left unreached after its retries: the next number gets attempts of its own; the contact records where a person answered', async () => {
    const contact = bed.contacts.seed(ENGINE_WS, CID, { phone: PRIMARY, altPhones: [ALT_1, ALT_2] });
    bed.voice.next = answering(ALT_2);

    await dialDue(); // primary, attempt 1
    bed.clock.advance(10 * MIN);
    await dialDue(); // primary, its retry
    expect(bed.contacts.stored(contact.id)).toMatchObject({ status: 'RETRY_SCHEDULED', phoneIndex: 1, phoneFirstAttempt: 2, attempts: 2, lastOutcome: 'no_answer' });
    bed.clock.advance(5 * MIN); // the cooldown, not the retry delay
    await dialDue(); // ALT_1, attempt 1 of its own
    bed.clock.advance(10 * MIN);
    await dialDue(); // ALT_1, its retry
    bed.clock.advance(5 * MIN);
    await dialDue(); // ALT_2 answers

    expect(bed.voice.requests.map((r) => r.to)).toEqual([PRIMARY, PRIMARY, ALT_1, ALT_1, ALT_2]);
    expect(bed.voice.requests.map((r) => r.variables.contact_phone)).toEqual([PRIMARY, PRIMARY, ALT_1, ALT_1, ALT_2]);
    expect(bed.contacts.stored(contact.id)).toMatchObject({ status: 'COMPLETED', attempts: 5, phoneIndex: 2, connectedPhone: ALT_2, lastOutcome: 'completed' });
    const calls = [...bed.calls.rows.values()];
    expect(calls.map((c) => c.toNumber)).toEqual([PRIMARY, PRIMARY, ALT_1, ALT_1, ALT_2]);
    expect(bed.debits.debits).toHaveLength(1); // billed as any answered call
    expect(bed.outbox.jobs).toContainEqual(leadFinalJob(contact.id, calls[4].id));
  });

  it('every number unreached: FAILED once the last one has had its retries; connectedPhone stays null', async () => {
    const contact = bed.contacts.seed(ENGINE_WS, CID, { phone: PRIMARY, altPhones: [ALT_1] });
    bed.voice.next = answering();
    for (let round = 0; round < 4; round++) {
      await dialDue();
      bed.clock.advance(10 * MIN);
    }
    expect(bed.voice.requests.map((r) => r.to)).toEqual([PRIMARY, PRIMARY, ALT_1, ALT_1]);
    expect(bed.contacts.stored(contact.id)).toMatchObject({ status: 'FAILED', attempts: 4, phoneIndex: 1, connectedPhone: null });
  });

  it('do-not-call is checked per number: a listed primary is skipped for the next number in the same run; all listed ends DO_NOT_CALL', async () => {
    const skipped = bed.contacts.seed(ENGINE_WS, CID, { phone: PRIMARY, altPhones: [ALT_1] });
    const blocked = bed.contacts.seed(ENGINE_WS, CID, { phone: '+14155554000', altPhones: ['+14155554001'] });
    await bed.dnc.add(ENGINE_WS, { phone: PRIMARY });
    await bed.dnc.add(ENGINE_WS, { phone: '+14155554000' });
    await bed.dnc.add(ENGINE_WS, { phone: '+14155554001' });
    bed.voice.next = answering(ALT_1);

    await dialDue();

    expect(bed.voice.requests.map((r) => r.to)).toEqual([ALT_1]);
    expect(bed.contacts.stored(skipped.id)).toMatchObject({ status: 'COMPLETED', attempts: 1, phoneIndex: 1, connectedPhone: ALT_1 });
    expect(bed.contacts.stored(blocked.id)).toMatchObject({ status: 'DO_NOT_CALL', attempts: 0, phoneIndex: 1, lastOutcome: 'do_not_call' });
    expect(bed.outbox.jobs).toContainEqual(leadFinalJob(blocked.id));
  });

  it('a number listed after the claim: the attempt does not dial it and moves on to the next number, with no result yet', async () => {
    const contact = bed.contacts.seed(ENGINE_WS, CID, { phone: PRIMARY, altPhones: [ALT_1] });
    bed.outbox.jobs.length = 0;
    await bed.dispatch.execute(CID);
    await bed.dnc.add(ENGINE_WS, { phone: PRIMARY });

    expect(await bed.attempt.execute(contact.id, 1)).toEqual({ state: 'do_not_call' });
    expect(bed.contacts.stored(contact.id)).toMatchObject({ status: 'RETRY_SCHEDULED', phoneIndex: 1, attempts: 0 });
    expect(bed.outbox.jobs.some((j) => j.name === 'lead-final')).toBe(false); // not final: no result yet
    expect(bed.voice.requests).toEqual([]);
  });
});
