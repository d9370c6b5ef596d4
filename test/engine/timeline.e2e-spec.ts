// A lead's timeline (issue 17, item 5; decisions.md 29.3) through the real API and worker with a
// FixedClock: a lead pushed at 23:35 UTC into a 09:00-18:00 UTC window waits overnight, and its
// timeline explains every hour of the wait — created → skipped outside_campaign_window until 09:00
// → claimed → attempt started → attempt ended → result emitted → webhook delivered — through both
// routes, isolated per workspace; a rejected request changes nothing.
process.env.DISPATCH_TICK_MS = '100';
process.env.REAPER_INTERVAL_MS = '3600000';
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

import { ContactTimeline, TimelineHousekeeping } from '@outreach/campaigns';
import { Clock, FixedClock } from '@outreach/platform';
import { expectError } from '../campaigns/campaign-helpers';
import { pushLead, runningApiCampaign } from '../results/results-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { WorkerApp } from '../support/worker-app';
import { CountingVoiceProvider, dispatcher, sandboxFor, sandboxNumber, startWorker, waitFor } from './engine-harness';

const PUSHED_AT = new Date('2026-11-23T23:35:00Z');
const OPENING = new Date('2026-11-24T09:00:00Z');

type Event = { type: string; at: string; detail: Record<string, unknown> };

describe('lead timeline', () => {
  const clock = new FixedClock(PUSHED_AT);
  const voice = new CountingVoiceProvider(sandboxFor(clock));
  let t: TestApp;
  let worker: WorkerApp;
  let receiver: WebhookReceiver;
  let ws: Seeded;
  let other: Seeded;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
    worker = await startWorker({ clock, voice });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    clock.set(PUSHED_AT);
    voice.reset();
    await t.reset();
    ws = await t.seed({ features: ['api_results'] });
    other = await t.seed({ features: ['api_results'] });
  });

  const leadTimeline = (campaignId: string, leadId: string, query = '', key = ws.key) =>
    t.http.get(`/v1/campaigns/${campaignId}/leads/${leadId}/timeline${query}`).set(bearer(key));
  const contactTimeline = (campaignId: string, contactId: string, query = '', key = ws.key) =>
    t.http.get(`/campaigns/${campaignId}/contacts/${contactId}/timeline${query}`).set(bearer(key));
  const types = async (campaignId: string, leadId: string) => ((await leadTimeline(campaignId, leadId)).body.items as Event[]).map((e) => e.type);
  const countEvents = async () => Number((await t.dataSource.query(`SELECT count(*) AS n FROM contact_timeline_events`))[0].n);

  it('explains an overnight wait, event by event, through both routes; tenant-isolated; pages with a cursor', async () => {
    const campaign = await runningApiCampaign(t, ws.key, ws.workspaceId, { timezone: 'UTC', dailyWindowStart: '09:00', dailyWindowEnd: '18:00' });
    const hook = await t.http.post('/result-webhooks').set(bearer(ws.key)).send({ url: receiver.url() });
    expect(hook.status).toBe(201);

    const pushed = await pushLead(t, ws.key, campaign.id, { idempotencyKey: `night-${Date.now()}`, phone: sandboxNumber(1, 7) });
    expect(pushed.status).toBe(201);
    const leadId: string = pushed.body.id;

    // The push woke the dispatcher; outside the window it records why the lead waits, once.
    await waitFor('the skip', () => types(campaign.id, leadId), (ts) => ts.includes('skipped'));
    const kick = dispatcher(worker);
    expect(await kick(campaign.id)).toMatchObject({ state: 'outside_window', claimed: 0, nextWakeAt: OPENING });
    clock.set(new Date('2026-11-24T03:00:00Z'));
    expect(await kick(campaign.id)).toMatchObject({ state: 'outside_window', claimed: 0 });
    expect(await types(campaign.id, leadId)).toEqual(['created', 'skipped']);
    expect(voice.total()).toBe(0);

    // 09:00: the window opens and the lead is called, its result written and delivered.
    clock.set(OPENING);
    await kick(campaign.id);
    await waitFor('the webhook delivery', () => types(campaign.id, leadId), (ts) => ts.includes('webhook_delivered'), 30_000);

    const res = await leadTimeline(campaign.id, leadId);
    expect(res.status).toBe(200);
    const events = res.body.items as Event[];
    expect(events.map((e) => e.type)).toEqual(['created', 'skipped', 'claimed', 'attempt_started', 'attempt_ended', 'result_emitted', 'webhook_delivered']);
    expect(res.body.nextCursor).toBeNull();
    const [created, skipped, claimed, started, ended, emitted, delivered] = events;
    expect(created).toEqual({ type: 'created', at: PUSHED_AT.toISOString(), detail: { source: 'API' } });
    expect(skipped).toEqual({ type: 'skipped', at: PUSHED_AT.toISOString(), detail: { reason: 'outside_campaign_window', until: OPENING.toISOString() } });
    expect(claimed).toEqual({ type: 'claimed', at: OPENING.toISOString(), detail: { attempt: 1 } });
    const [call] = await t.dataSource.query(`SELECT id, outcome FROM calls WHERE contact_id = $1`, [leadId]);
    expect(started).toEqual({ type: 'attempt_started', at: OPENING.toISOString(), detail: { attempt: 1, callId: call.id, toNumber: sandboxNumber(1, 7) } });
    expect(ended).toEqual({ type: 'attempt_ended', at: OPENING.toISOString(), detail: { attempt: 1, callId: call.id, outcome: 'completed', status: 'COMPLETED' } });
    const lead = await t.http.get(`/v1/campaigns/${campaign.id}/leads/${leadId}`).set(bearer(ws.key));
    expect(lead.body.resultId).toEqual(expect.any(String));
    expect(emitted).toEqual({ type: 'result_emitted', at: OPENING.toISOString(), detail: { resultId: lead.body.resultId, status: 'completed' } });
    expect(delivered).toMatchObject({ type: 'webhook_delivered', detail: { resultId: lead.body.resultId, endpointId: hook.body.id, attempt: 1, statusCode: 200 } });
    expect(receiver.received.length).toBeGreaterThanOrEqual(1);

    // The contacts route tells the same story.
    const same = await contactTimeline(campaign.id, leadId);
    expect(same.status).toBe(200);
    expect(same.body).toEqual(res.body);

    // Cursor pages: 3 + 4, nothing repeated or skipped.
    const first = await leadTimeline(campaign.id, leadId, '?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.items).toEqual(events.slice(0, 3));
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await contactTimeline(campaign.id, leadId, `?limit=3&cursor=${first.body.nextCursor}`);
    expect(second.body.items).toEqual(events.slice(3, 6));
    const third = await leadTimeline(campaign.id, leadId, `?limit=3&cursor=${second.body.nextCursor}`);
    expect(third.body).toEqual({ items: events.slice(6), nextCursor: null });

    // Rejected requests: each answers its code and changes nothing.
    const before = await countEvents();
    expectError(await leadTimeline(campaign.id, leadId, '', other.key), 404, 'campaign_not_found');
    expectError(await contactTimeline(campaign.id, leadId, '', other.key), 404, 'campaign_not_found');
    expectError(await leadTimeline(campaign.id, '00000000-0000-4000-8000-000000000000'), 404, 'lead_not_found');
    expectError(await leadTimeline(campaign.id, 'not-a-uuid'), 404, 'lead_not_found');
    expectError(await contactTimeline(campaign.id, '00000000-0000-4000-8000-000000000000'), 404, 'contact_not_found');
    expectError(await contactTimeline(campaign.id, 'not-a-uuid'), 404, 'contact_not_found');
    expectError(await leadTimeline('00000000-0000-4000-8000-000000000000', leadId), 404, 'campaign_not_found');
    expectError(await leadTimeline(campaign.id, leadId, '?cursor=bogus'), 400, 'invalid_cursor');
    expectError(await contactTimeline(campaign.id, leadId, `?cursor=${Buffer.from('results:1').toString('base64url')}`), 400, 'invalid_cursor');
    expectError(await leadTimeline(campaign.id, leadId, '?limit=0'), 400, 'invalid_query');
    expectError(await contactTimeline(campaign.id, leadId, '?limit=101'), 400, 'invalid_query');
    expectError(await leadTimeline(campaign.id, leadId, '?since=yesterday'), 400, 'invalid_query');
    // Another workspace's campaign: its own lead ids are not found here either.
    const theirs = await runningApiCampaign(t, other.key, other.workspaceId);
    expectError(await leadTimeline(theirs.id, leadId), 404, 'campaign_not_found');
    expectError(await contactTimeline(theirs.id, leadId, '', other.key), 404, 'contact_not_found');
    // A refused push (invalid phone) creates no contact and no event.
    expectError(await pushLead(t, ws.key, campaign.id, { idempotencyKey: `bad-${Date.now()}`, phone: '12' }), 422, 'invalid_phone');
    expect(await countEvents()).toBe(before);
    expect((await leadTimeline(campaign.id, leadId)).body.items).toEqual(events);
  }, 90_000);
  it('on Postgres: keeps the newest 200 events per contact, skips only on a change, and the worker forgets events past TIMELINE_RETENTION_DAYS', async () => {
    const campaign = await runningApiCampaign(t, ws.key, ws.workspaceId, { timezone: 'UTC', dailyWindowStart: '09:00', dailyWindowEnd: '18:00' });
    const a = (await pushLead(t, ws.key, campaign.id, { idempotencyKey: `a-${Date.now()}`, phone: sandboxNumber(2, 7) })).body.id as string;
    const b = (await pushLead(t, ws.key, campaign.id, { idempotencyKey: `b-${Date.now()}`, phone: sandboxNumber(3, 7) })).body.id as string;
    await waitFor('both skips', async () => [...(await types(campaign.id, a)), ...(await types(campaign.id, b))], (ts) => ts.filter((x) => x === 'skipped').length === 2);
    const timeline = t.get(ContactTimeline);

    // The same reason and end: nothing new; another end: one event each.
    expect(await timeline.skipped([a, b], 'outside_campaign_window', OPENING)).toBe(0);
    expect(await timeline.skipped([a, a, b], 'daily_cap', OPENING)).toBe(2);

    for (let i = 0; i < 205; i++) await timeline.record({ contactId: a, type: 'claimed', detail: { attempt: i + 1 } });
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM contact_timeline_events WHERE contact_id = $1`, [a]);
    expect(n).toBe(200);
    const page = await leadTimeline(campaign.id, a, '?limit=1');
    expect(page.body.items[0]).toMatchObject({ type: 'claimed', detail: { attempt: 6 } });
    expect(await types(campaign.id, b)).toEqual(['created', 'skipped', 'skipped']);

    // 30 days later (the default retention) nothing is old enough; a day more and b's events go.
    clock.set(new Date(PUSHED_AT.getTime() + 30 * 86_400_000));
    expect((await worker.get(TimelineHousekeeping).run()).timelineEventsPurged).toBe(0);
    await timeline.record({ contactId: a, type: 'claimed', detail: { attempt: 206 } });
    clock.set(new Date(PUSHED_AT.getTime() + 31 * 86_400_000));
    // a: the 206th event pushed the 6th out, so 199 old ones (7th to 205th) go; b: its 3.
    expect((await worker.get(TimelineHousekeeping).run()).timelineEventsPurged).toBe(199 + 3);
    expect((await leadTimeline(campaign.id, b)).body).toEqual({ items: [], nextCursor: null });
    expect((await leadTimeline(campaign.id, a)).body.items.map((e: Event) => e.detail)).toEqual([{ attempt: 206 }]);
  }, 60_000);
});
