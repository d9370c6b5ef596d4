// The claims the engine's maintenance gives their attempt job again (decisions.md 16.30), read by
// the SQL repository on the real Postgres: IN_PROGRESS on a voice leg — the contact's own leg, or
// with none its channel's first — with no call, claimed before the cut-off; oldest first.
// Beside them, the live-call sweep's read (decisions.md 16.44): the attempts whose call was placed.
import { CampaignExecution } from '@outreach/campaigns';
import { createCampaign } from './campaign-helpers';
import { Seeded, TestApp } from '../support/test-app';

const CUT_OFF = new Date('2026-11-30T10:00:00Z');
const BEFORE = '2026-11-30T09:58:00Z';

describe('undialled claims', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
  });

  /** One contact of `campaignId` in the given state; returns its id. */
  async function contact(campaignId: string, phone: string, state: { status?: string; leg?: string | null; startedAt?: string; callId?: boolean }): Promise<string> {
    const [row]: Array<{ id: string }> = await t.dataSource.query(
      `INSERT INTO campaign_contacts (campaign_id, workspace_id, phone, status, leg, attempts, attempt_seq, attempt_started_at, attempt_deadline_at, current_call_id)
       VALUES ($1, $2, $3, $4, $5, 1, 1, $6::timestamptz, $6::timestamptz + interval '10 minutes', CASE WHEN $7 THEN gen_random_uuid() END)
       RETURNING id`,
      [campaignId, ws.workspaceId, phone, state.status ?? 'IN_PROGRESS', state.leg ?? null, state.startedAt ?? BEFORE, state.callId ?? false],
    );
    return row.id;
  }

  it('voice legs only (own or the channel’s first), without a call, claimed before the cut-off, oldest first', async () => {
    const voice = (await createCampaign(t, ws.key, { channel: 'VOICE' })).id as string;
    const voiceThenWa = (await createCampaign(t, ws.key, { channel: 'VOICE_THEN_WHATSAPP' })).id as string;
    const waThenVoice = (await createCampaign(t, ws.key, { channel: 'WHATSAPP_THEN_VOICE' })).id as string;
    const whatsapp = (await createCampaign(t, ws.key, { channel: 'WHATSAPP' })).id as string;

    const oldest = await contact(voice, '+14155550001', { startedAt: '2026-11-30T09:00:00Z' });
    const firstLeg = await contact(voiceThenWa, '+14155550002', {});
    const movedToVoice = await contact(waThenVoice, '+14155550003', { leg: 'VOICE', startedAt: '2026-11-30T09:30:00Z' });
    // Not these: a message leg (moved to, or its channel's first), a call on record, younger than the cut-off, not in flight.
    await contact(voiceThenWa, '+14155550004', { leg: 'WHATSAPP' });
    await contact(waThenVoice, '+14155550005', {});
    await contact(whatsapp, '+14155550006', {});
    await contact(voice, '+14155550007', { callId: true });
    await contact(voice, '+14155550008', { startedAt: '2026-11-30T10:00:01Z' });
    await contact(voice, '+14155550009', { status: 'RETRY_SCHEDULED' });

    const execution = t.get(CampaignExecution);
    expect(await execution.findUndialled('VOICE', CUT_OFF, 10)).toEqual([
      { contactId: oldest, attemptSeq: 1 },
      { contactId: movedToVoice, attemptSeq: 1 },
      { contactId: firstLeg, attemptSeq: 1 },
    ]);
    expect(await execution.findUndialled('VOICE', CUT_OFF, 1)).toEqual([{ contactId: oldest, attemptSeq: 1 }]);
  });

  it("the live-call sweep's read (decisions.md 16.44): IN_PROGRESS with a call placed, claimed before the cut-off, in claim order; pages follow (claim time, contact id)", async () => {
    const voice = (await createCampaign(t, ws.key, { channel: 'VOICE' })).id as string;
    const oldest = await contact(voice, '+14155550011', { startedAt: '2026-11-30T09:00:00Z', callId: true });
    const sameInstant = [await contact(voice, '+14155550012', { callId: true }), await contact(voice, '+14155550013', { callId: true })].sort(); // the contact id orders them
    // Not these: no call yet, claimed after the cut-off, no longer in flight.
    await contact(voice, '+14155550014', {});
    await contact(voice, '+14155550015', { startedAt: '2026-11-30T10:00:01Z', callId: true });
    await contact(voice, '+14155550016', { status: 'COMPLETED', callId: true });
    const placed = async (id: string) => {
      const [row]: Array<{ call: string; at: Date }> = await t.dataSource.query(`SELECT current_call_id AS call, attempt_started_at AS at FROM campaign_contacts WHERE id = $1`, [id]);
      return { contactId: id, attemptSeq: 1, callId: row.call, claimedAt: row.at };
    };
    const [first, a, b] = [await placed(oldest), await placed(sameInstant[0]), await placed(sameInstant[1])];

    const execution = t.get(CampaignExecution);
    expect(await execution.findPlacedCalls(CUT_OFF, null, 10)).toEqual([first, a, b]);
    const page = await execution.findPlacedCalls(CUT_OFF, null, 2);
    expect(page).toEqual([first, a]);
    expect(await execution.findPlacedCalls(CUT_OFF, page[1], 2)).toEqual([b]);
  });
});
