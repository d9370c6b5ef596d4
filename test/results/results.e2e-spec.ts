import { Clock, FixedClock } from '@outreach/platform';
import { RecordLeadResult, ResultsHousekeeping } from '@outreach/results';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { addContacts, createCampaign } from '../campaigns/campaign-helpers';
import { expectError, finishLead, Loose, pushLead, runningApiCampaign } from './results-helpers';

const T0 = new Date('2026-11-21T10:00:00Z');
const DAY = 24 * 3600 * 1000;

describe('lead results (GET /v1/results, GET /v1/results/{id})', () => {
  let t: TestApp;
  let ws: Seeded;
  let campaign: Loose;
  const clock = new FixedClock(T0);

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    clock.set(T0);
    await t.reset();
    ws = await t.seed({ features: ['api_results'] });
    campaign = await runningApiCampaign(t, ws.key, ws.workspaceId);
  });

  const get = (path: string, key = ws.key) => t.http.get(path).set(bearer(key));

  async function pushed(key: string, phone: string, extra: Record<string, unknown> = {}): Promise<Loose> {
    const res = await pushLead(t, ws.key, campaign.id, { idempotencyKey: key, phone, ...extra });
    if (res.status !== 201) throw new Error(`push: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  it('a final API lead gets one immutable api.lead.result in the spec’s shape', async () => {
    const lead = await pushed('order-7', '+14155552675', { name: 'Ada', fields: { plan: 'pro', seats: 3 } });
    const { resultId, callId } = await finishLead(t, ws.workspaceId, campaign.id, lead.id);

    const res = await get(`/v1/results/${resultId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: resultId,
      type: 'api.lead.result',
      apiVersion: '1.0',
      createdAt: T0.toISOString(),
      data: {
        leadId: lead.id,
        campaignId: campaign.id,
        idempotencyKey: 'order-7',
        lead: { phone: '+14155552675', name: 'Ada', fields: { plan: 'pro', seats: 3 } },
        status: 'completed',
        disposition: 'completed',
        attempts: 1,
        finalCall: {
          id: callId,
          status: 'ENDED',
          outcome: 'completed',
          providerDisposition: 'completed',
          attemptNumber: 1,
          answeredAt: '2026-11-21T10:04:00.000Z',
          endedAt: '2026-11-21T10:05:00.000Z',
          durationMs: 60_000,
          toNumber: '+14155552675',
        },
        analysis: { status: 'PENDING', evaluation: {}, extraction: {} },
        journey: null,
        connectedPhone: '+14155552675',
        message: null,
      },
    });
    // members in the spec's order (jsonb keeps its own order; readers restore this one); ours after them
    expect(Object.keys(res.body)).toEqual(['id', 'type', 'apiVersion', 'createdAt', 'data']);
    expect(Object.keys(res.body.data)).toEqual([
      'leadId', 'campaignId', 'idempotencyKey', 'lead', 'status', 'disposition', 'attempts', 'finalCall', 'analysis', 'journey', 'connectedPhone', 'message',
    ]);
    expect((await get(`/v1/campaigns/${campaign.id}/leads/${lead.id}`)).body).toMatchObject({ status: 'COMPLETED', resultId });
    expect((await pushLead(t, ws.key, campaign.id, { idempotencyKey: 'order-7', phone: '+14155552675', name: 'Ada', fields: { plan: 'pro', seats: 3 } })).status).toBe(200);

    // idempotent, and immutable: the contact moving on changes nothing
    clock.advance(3600_000);
    expect(await t.get(RecordLeadResult).execute(lead.id, callId)).toBe(resultId);
    await t.dataSource.query(`UPDATE campaign_contacts SET status = 'FAILED', attempts = 4, last_outcome = 'busy' WHERE id = $1`, [lead.id]);
    expect(await t.get(RecordLeadResult).execute(lead.id, null)).toBe(resultId);
    expect((await get(`/v1/results/${resultId}`)).body).toEqual(res.body);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM lead_results WHERE lead_id = $1`, [lead.id]);
    expect(n).toBe(1);
  });

  it('a failed lead, and a lead that ended without a call', async () => {
    const failed = await pushed('f', '+14155552670');
    const { resultId } = await finishLead(t, ws.workspaceId, campaign.id, failed.id, { status: 'FAILED', outcome: 'no_answer' });
    expect((await get(`/v1/results/${resultId}`)).body.data).toMatchObject({
      status: 'failed',
      disposition: 'no_answer',
      finalCall: { outcome: 'no_answer', answeredAt: null, durationMs: 0 },
    });

    const dnc = await pushed('d', '+14155552679');
    await t.dataSource.query(`UPDATE campaign_contacts SET status = 'DO_NOT_CALL' WHERE id = $1`, [dnc.id]);
    const id = await t.get(RecordLeadResult).execute(dnc.id);
    expect((await get(`/v1/results/${id}`)).body.data).toMatchObject({
      status: 'do_not_call',
      disposition: 'do_not_call',
      attempts: 0,
      finalCall: null,
      analysis: { status: 'SKIPPED', evaluation: {}, extraction: {} },
      journey: null,
    });
  });

  it('no result for a lead that is not final, nor for a contact that is not an API lead', async () => {
    const lead = await pushed('p', '+14155552671');
    expect(await t.get(RecordLeadResult).execute(lead.id)).toBeNull();
    const csv = await createCampaign(t, ws.key, { source: 'CSV' });
    await addContacts(t, ws.key, csv.id, ['+14155550101']);
    const [contact] = await t.dataSource.query(`SELECT id FROM campaign_contacts WHERE campaign_id = $1`, [csv.id]);
    await t.dataSource.query(`UPDATE campaign_contacts SET status = 'COMPLETED' WHERE id = $1`, [contact.id]);
    expect(await t.get(RecordLeadResult).execute(contact.id)).toBeNull();
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM lead_results`);
    expect(n).toBe(0);
  });

  it('404 result_not_found: unknown, malformed, another workspace’s', async () => {
    const lead = await pushed('k', '+14155552675');
    const { resultId } = await finishLead(t, ws.workspaceId, campaign.id, lead.id);
    const other = await t.seed({ features: ['api_results'] });
    expectError(await get('/v1/results/7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01'), 404, 'result_not_found');
    expectError(await get('/v1/results/nope'), 404, 'result_not_found');
    expectError(await get(`/v1/results/${resultId}`, other.key), 404, 'result_not_found');
    expect((await get('/v1/results', other.key)).body).toEqual({ items: [], nextCursor: null });
  });

  it('403 api_results_not_enabled unless the workspace has the feature', async () => {
    const lead = await pushed('k', '+14155552675');
    const { resultId } = await finishLead(t, ws.workspaceId, campaign.id, lead.id);
    const off = await t.seed();
    expectError(await get(`/v1/results/${resultId}`, off.key), 403, 'api_results_not_enabled');
    expectError(await get('/v1/results', off.key), 403, 'api_results_not_enabled');
    expectError(await t.http.get('/result-webhooks').set(bearer(off.key)), 403, 'api_results_not_enabled');
    const viewer = await t.addKey(ws.workspaceId, { scopes: ['calls.view'] });
    const res = await get(`/v1/results/${resultId}`, viewer.key);
    expectError(res, 403, 'forbidden');
    expect(res.body.requiredPermission).toBe('campaigns.view');
  });

  it('410 result_expired past RESULT_RETENTION_DAYS; the purge keeps a tombstone', async () => {
    const lead = await pushed('k', '+14155552675');
    const { resultId } = await finishLead(t, ws.workspaceId, campaign.id, lead.id);
    expect(t.config.resultRetentionDays).toBe(30);

    clock.set(new Date(T0.getTime() + 30 * DAY - 1));
    expect((await get(`/v1/results/${resultId}`)).status).toBe(200);
    clock.set(new Date(T0.getTime() + 30 * DAY));
    const expired = await get(`/v1/results/${resultId}`);
    expectError(expired, 410, 'result_expired');
    expect(expired.body.expiredAt).toBe(new Date(T0.getTime() + 30 * DAY).toISOString());
    expect((await get('/v1/results')).body.items).toEqual([]);

    expect((await t.get(ResultsHousekeeping).run()).resultsExpired).toBe(1);
    const [row] = await t.dataSource.query(`SELECT envelope, expired_at FROM lead_results WHERE id = $1`, [resultId]);
    expect(row).toEqual({ envelope: null, expired_at: new Date(T0.getTime() + 30 * DAY) });
    expectError(await get(`/v1/results/${resultId}`), 410, 'result_expired');
    // the lead still knows its result id; the result stays one per lead
    expect(await t.get(RecordLeadResult).execute(lead.id)).toBe(resultId);
  });

  it('cursor pages never repeat or skip a result while new results arrive; filters campaignId and since', async () => {
    const other = await runningApiCampaign(t, ws.key, ws.workspaceId);
    const made: string[] = [];
    const finishOne = async (n: number, into: Loose = campaign) => {
      const res = await pushLead(t, ws.key, into.id, { idempotencyKey: `k${n}`, phone: `+1415555${String(2000 + n)}` });
      const { resultId } = await finishLead(t, ws.workspaceId, into.id, res.body.id);
      clock.advance(1000);
      return resultId;
    };
    for (let n = 0; n < 5; n++) made.push(await finishOne(n));

    const seen: string[] = [];
    let cursor: string | null = null;
    let n = 5;
    do {
      const page: { status: number; body: { items: Array<{ id: string }>; nextCursor: string | null } } = await get(
        `/v1/results?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((i) => i.id));
      cursor = page.body.nextCursor;
      if (n < 9) made.push(await finishOne(n++)); // new results arrive between pages
    } while (cursor);
    expect(seen).toEqual(made.slice(0, seen.length));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(5);
    // a client that keeps the last cursor picks up exactly what came after
    const all = await get('/v1/results?limit=100');
    expect(all.body.items.map((i: { id: string }) => i.id)).toEqual(made);

    const foreign = await finishOne(99, other);
    expect((await get(`/v1/results?campaignId=${other.id}`)).body.items.map((i: { id: string }) => i.id)).toEqual([foreign]);
    const since = new Date(T0.getTime() + 7000).toISOString();
    const recent = await get(`/v1/results?since=${encodeURIComponent(since)}&limit=100`);
    expect(recent.body.items.every((i: { createdAt: string }) => i.createdAt >= since)).toBe(true);
    expect(recent.body.items.length).toBe(made.length + 1 - 7);
  });

  it('400 invalid_cursor and invalid_query', async () => {
    expectError(await get('/v1/results?cursor=garbage!'), 400, 'invalid_cursor');
    expectError(await get(`/v1/results?cursor=${Buffer.from('deliveries:5').toString('base64url')}`), 400, 'invalid_cursor');
    expectError(await get('/v1/results?limit=0'), 400, 'invalid_query');
    expectError(await get('/v1/results?limit=101'), 400, 'invalid_query');
    expectError(await get('/v1/results?campaignId=nope'), 400, 'invalid_query');
    expectError(await get('/v1/results?since=yesterday'), 400, 'invalid_query');
  });
});
