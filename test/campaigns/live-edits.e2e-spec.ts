// Live edits (issue 15 item 4; decisions.md 34.1-34.2): PUT /campaigns/{id}/schedule, …/outreach and
// …/metrics on the real app, and a window edit of a RUNNING campaign that moves its next dial,
// observed with a FixedClock and the real worker (outbox relay, dispatcher).
process.env.DISPATCH_TICK_MS = '100';
process.env.REAPER_INTERVAL_MS = '3600000';

import { Clock, FixedClock } from '@outreach/platform';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { createCampaign, expectError, readCampaign } from './campaign-helpers';
import { CountingVoiceProvider, dispatcher, EngineProbe, runnableCampaign, sandboxFor, sandboxNumber, startCampaign, startWorker, waitFor } from '../engine/engine-harness';

const MONDAY_10_UTC = new Date('2026-11-23T10:00:00Z');
const UNKNOWN = '0b0b0b0b-0000-4000-8000-000000000000';
const RULE = { trigger: 'MESSAGE_REPLY', afterDays: 0, condition: { kind: 'ai_interested', describe: 'The contact wants to talk to someone' }, conditions: [], match: 'ALL', action: 'HAND_OFF' };

describe('live edits', () => {
  const clock = new FixedClock(MONDAY_10_UTC);
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
    clock.set(MONDAY_10_UTC);
    voice.reset();
    await t.reset();
    ws = await t.seed();
  });

  const put = (id: string, route: string, body: unknown, key = ws.key) => t.http.put(`/campaigns/${id}/${route}`).set(bearer(key)).send(body as object);
  const setStatus = (id: string, status: string) => t.dataSource.query(`UPDATE campaigns SET status = $2 WHERE id = $1`, [id, status]);

  const EDITS: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['schedule', { dailyWindowStart: '07:30', dailyWindowEnd: '19:45', dialDays: [1, 2, 3], dailyDialCap: 40, dailyMessageCap: 90, scheduledEndAt: '2027-01-01T00:00:00.000Z' }, {}],
    ['outreach', { outreachRules: [RULE], whatsappAgentTemplateIds: [] }, { channel: 'WHATSAPP' }],
    ['metrics', { evaluationMetrics: [{ key: 'budget_fit', label: 'Budget fit', allowedValues: ['yes', 'no'], prompt: 'Does the budget fit?' }] }, {}],
  ];

  it.each(EDITS)('PUT …/%s works in DRAFT, RUNNING, PAUSED and CREDIT_EXHAUSTED; 409 campaign_not_editable when finished, changing nothing', async (route, body, create) => {
    const c = await createCampaign(t, ws.key, create);
    for (const status of ['COMPLETED', 'CANCELED']) {
      await setStatus(c.id, status);
      const before = await readCampaign(t, ws.key, c.id);
      expectError(await put(c.id, route, body), 409, 'campaign_not_editable');
      expect(await readCampaign(t, ws.key, c.id)).toEqual(before);
    }
    const expected = { ...body, ...(body.evaluationMetrics ? { evaluationMetrics: [{ ...(body.evaluationMetrics as object[])[0], builtin: false }] } : {}) };
    for (const status of ['DRAFT', 'RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED']) {
      await setStatus(c.id, status);
      const res = await put(c.id, route, body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ...expected, status });
      expect(await readCampaign(t, ws.key, c.id)).toMatchObject(expected);
    }
  });

  it('404 campaign_not_found (unknown, another workspace\'s), 400 no_fields_to_update', async () => {
    const c = await createCampaign(t, ws.key);
    const other = await t.seed();
    const bodies: Record<string, object> = { schedule: { dailyWindowStart: '08:00' }, outreach: { outreachRules: [] }, metrics: { evaluationMetrics: [] } };
    for (const route of ['schedule', 'outreach', 'metrics']) {
      expectError(await put(UNKNOWN, route, bodies[route]), 404, 'campaign_not_found');
      expectError(await put(c.id, route, {}), 400, 'no_fields_to_update');
    }
    const before = await readCampaign(t, ws.key, c.id);
    expectError(await put(c.id, 'schedule', { dailyWindowStart: '08:00' }, other.key), 404, 'campaign_not_found');
    expect(await readCampaign(t, ws.key, c.id)).toEqual(before);
  });

  it('PATCH\'s bounds, and only the route\'s own fields: 400 invalid_body, changing nothing', async () => {
    const c = await createCampaign(t, ws.key, { channel: 'WHATSAPP' });
    await setStatus(c.id, 'RUNNING');
    const before = await readCampaign(t, ws.key, c.id);
    const refused: Array<[string, Record<string, unknown>]> = [
      ['schedule', { dailyWindowStart: '24:00' }],
      ['schedule', { dialDays: [] }],
      ['schedule', { dialDays: [7] }],
      ['schedule', { dailyDialCap: 0 }],
      ['schedule', { dailyMessageCap: 100001 }],
      ['schedule', { scheduledEndAt: 'tomorrow' }],
      ['schedule', { retryCount: 3 }], // a PATCH field, not a schedule one
      ['schedule', { scheduledStartAt: '2027-01-02T00:00:00Z', scheduledEndAt: '2027-01-01T00:00:00Z' }],
      ['metrics', { evaluationMetrics: Array.from({ length: 13 }, (_, i) => ({ key: `m${i}`, label: 'x', allowedValues: ['a'], prompt: 'p' })) }],
      ['metrics', { name: 'renamed' }],
      ['outreach', { outreachRules: [{ ...RULE, trigger: 'NO_REPLY' }] }],
      ['outreach', { outreachRules: [{ ...RULE, action: 'CALL' }] }],
      ['outreach', { outreachRules: [{ ...RULE, condition: { kind: 'sentiment', describe: 'x' } }] }],
      ['outreach', { outreachRules: [{ ...RULE, afterDays: 2 }] }], // MESSAGE_REPLY acts on the reply itself
      ['outreach', { outreachRules: Array.from({ length: 11 }, () => RULE) }],
      ['outreach', { whatsappAgentTemplateIds: Array.from({ length: 21 }, (_, i) => `t${i}`) }],
      ['outreach', { whatsappAgentTemplateIds: ['tpl_a'] }], // refused unless empty (30.20)
    ];
    for (const [route, body] of refused) {
      const res = await put(c.id, route, body);
      expect({ route, body, status: res.status, error: res.body.error }).toEqual({ route, body, status: 400, error: 'invalid_body' });
    }
    expect(await readCampaign(t, ws.key, c.id)).toEqual(before);
  });

  it('outreach: 400 campaign_channel_switch_not_supported and campaign_channel_has_no_rules; metrics: reserved_metric_key and metric_key_collision', async () => {
    const voiceCampaign = await createCampaign(t, ws.key, { channel: 'VOICE', customExtractionKeys: [{ name: 'budget', description: 'Budget' }] });
    const email = await createCampaign(t, ws.key, { channel: 'EMAIL' });
    const whatsapp = await createCampaign(t, ws.key, { channel: 'VOICE_THEN_WHATSAPP' });
    for (const c of [voiceCampaign, email, whatsapp]) await setStatus(c.id, 'RUNNING');
    const before = await Promise.all([voiceCampaign, email, whatsapp].map((c) => readCampaign(t, ws.key, c.id)));

    expectError(await put(whatsapp.id, 'outreach', { channel: 'WHATSAPP', outreachRules: [RULE] }), 400, 'campaign_channel_switch_not_supported');
    expectError(await put(voiceCampaign.id, 'outreach', { outreachRules: [RULE] }), 400, 'campaign_channel_has_no_rules');
    expectError(await put(email.id, 'outreach', { outreachRules: [RULE] }), 400, 'campaign_channel_has_no_rules');
    expectError(await put(voiceCampaign.id, 'metrics', { evaluationMetrics: [{ key: 'outcome', label: 'x', allowedValues: ['a'], prompt: 'p' }] }), 400, 'reserved_metric_key');
    expectError(await put(voiceCampaign.id, 'metrics', { evaluationMetrics: [{ key: 'budget', label: 'x', allowedValues: ['a'], prompt: 'p' }] }), 400, 'metric_key_collision');
    expect(await Promise.all([voiceCampaign, email, whatsapp].map((c) => readCampaign(t, ws.key, c.id)))).toEqual(before);

    // The campaign's own channel may be sent; [] clears the rules on any channel.
    const res = await put(whatsapp.id, 'outreach', { channel: 'VOICE_THEN_WHATSAPP', outreachRules: [RULE] });
    expect(res.status).toBe(200);
    expect(res.body.outreachRules).toEqual([RULE]);
    expect((await put(voiceCampaign.id, 'outreach', { outreachRules: [] })).status).toBe(200);
  });

  it('a RUNNING message campaign takes a new outreach template only when it can be sent (campaign_channel_needs_template)', async () => {
    const c = await createCampaign(t, ws.key, { channel: 'WHATSAPP' });
    await setStatus(c.id, 'RUNNING');
    expectError(await put(c.id, 'outreach', { whatsappOutreachTemplateId: UNKNOWN }), 400, 'campaign_channel_needs_template');
    expect((await readCampaign(t, ws.key, c.id)).whatsappOutreachTemplateId).toBeNull();
    // PAUSED: the resume's start checks judge it.
    await setStatus(c.id, 'PAUSED');
    expect((await put(c.id, 'outreach', { whatsappOutreachTemplateId: UNKNOWN })).status).toBe(200);
  });

  it('a window edit of a RUNNING campaign moves its next dial at the next dispatch run, without a restart (clock port)', async () => {
    const phones = [sandboxNumber(1, 5), sandboxNumber(2, 6)];
    const { campaignId } = await runnableCampaign(t, ws, { phones, settings: { dailyWindowStart: '14:00', dailyWindowEnd: '18:00' } });
    await startCampaign(t, ws, campaignId, { reservedConcurrency: 2 });
    const kick = dispatcher(worker);
    // 10:00 UTC: outside 14:00-18:00, asleep until 14:00.
    expect(await kick(campaignId)).toMatchObject({ state: 'outside_window', claimed: 0, nextWakeAt: new Date('2026-11-23T14:00:00Z') });

    // Later today still: the next dial moves to 12:00, the clock has not moved, nothing dials.
    expect((await put(campaignId, 'schedule', { dailyWindowStart: '12:00' })).status).toBe(200);
    expect(await kick(campaignId)).toMatchObject({ state: 'outside_window', claimed: 0, nextWakeAt: new Date('2026-11-23T12:00:00Z') });
    expect(voice.total()).toBe(0);

    // Open now: the edit's own dispatch job (no kick from the test) dials both contacts at 10:00.
    expect((await put(campaignId, 'schedule', { dailyWindowStart: '09:00' })).status).toBe(200);
    await waitFor('both contacts dialled', () => probe.statusCounts(campaignId), (counts) => counts.COMPLETED === 2);
    expect(voice.total()).toBe(2);
    expect(clock.now()).toEqual(MONDAY_10_UTC);
    await waitFor('the campaign to complete', () => probe.campaignStatus(campaignId), (status) => status === 'COMPLETED');
  });
});
