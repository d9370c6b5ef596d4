import { CallLog } from '@outreach/calls';
import { Clock, FixedClock, TransactionHost } from '@outreach/platform';
import { createCampaign, expectError } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { countCalls, recordCall, sandboxResult } from './call-fixtures';

/*
 * The calls API (scope calls.view): GET /calls (offset/limit + total, filters), GET /calls/{id},
 * GET /campaigns/{id}/activity (latest 50), and PUT /calls/{id}/metrics/{key} (403 operator_only
 * for every key). Calls are recorded through the engine's CallLog at clock-controlled instants.
 */
describe('calls API', () => {
  const clock = new FixedClock(new Date('2026-03-01T10:00:00.000Z'));
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create({ configure: (b) => b.overrideProvider(Clock).useValue(clock) });
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    clock.set(new Date('2026-03-01T10:00:00.000Z'));
    ws = await t.seed();
  });

  /** Records a call, then moves the clock one minute on (so creation order is start order). */
  async function call(input: Omit<Parameters<typeof recordCall>[1], 'workspaceId'> & { workspaceId?: string }): Promise<string> {
    const id = await recordCall(t, { workspaceId: ws.workspaceId, ...input });
    clock.advance(60_000);
    return id;
  }

  const get = (path: string, key = ws.key) => t.http.get(path).set(bearer(key));

  it('GET /calls/{id}: the call with every field; unknown, malformed and foreign ids → 404 call_not_found', async () => {
    const campaign = await createCampaign(t, ws.key);
    const id = await call({ campaignId: campaign.id, to: '+14155550107', attemptNumber: 2 });

    const res = await get(`/calls/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      campaignId: campaign.id,
      contactId: null,
      agentId: null,
      fromNumber: '+14155550100',
      toNumber: '+14155550107',
      kind: 'campaign',
      status: 'ENDED',
      outcome: 'completed',
      providerDisposition: 'completed',
      attemptNumber: 2,
      startedAt: '2026-03-01T10:00:00.000Z',
      answeredAt: expect.any(String),
      endedAt: expect.any(String),
      durationMs: expect.any(Number),
      transcript: expect.stringContaining('Agent:'),
      recordingUrl: null,
      providerAnalysis: null,
      extraction: null,
      evaluation: null,
      metricOverrides: {},
      analysisStatus: 'PENDING',
      createdAt: '2026-03-01T10:00:00.000Z',
    });

    expectError(await get('/calls/00000000-0000-4000-8000-000000000000'), 404, 'call_not_found');
    expectError(await get('/calls/not-a-uuid'), 404, 'call_not_found');

    const other = await t.seed();
    expectError(await get(`/calls/${id}`, other.key), 404, 'call_not_found');
  });

  it('GET /calls: newest first, offset/limit pages with the total; another workspace sees none of them', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await call({ to: `+1415555010${i}` }));
    const other = await t.seed();
    const foreign = await recordCall(t, { workspaceId: other.workspaceId, to: '+14155550199' });

    const first = await get('/calls?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(7);
    expect(first.body.items.map((c: { id: string }) => c.id)).toEqual([ids[6], ids[5], ids[4]]);

    const pages: string[] = [];
    for (let offset = 0; offset < 7; offset += 3) {
      const page = await get(`/calls?offset=${offset}&limit=3`);
      expect(page.body.total).toBe(7);
      pages.push(...page.body.items.map((c: { id: string }) => c.id));
    }
    expect(pages).toEqual([...ids].reverse());
    expect((await get('/calls?offset=7&limit=3')).body).toEqual({ items: [], total: 7 });
    expect((await get('/calls')).body.items).toHaveLength(7); // default limit 50

    const theirs = await get('/calls', other.key);
    expect(theirs.body).toEqual({ items: [expect.objectContaining({ id: foreign })], total: 1 });
    expect(pages).not.toContain(foreign);
  });

  it('GET /calls filters: campaignId, status, outcome, from/to (totals follow the filters)', async () => {
    const a = await createCampaign(t, ws.key);
    const b = await createCampaign(t, ws.key);
    const a1 = await call({ campaignId: a.id, to: '+14155550105' }); // 10:00 completed
    const a2 = await call({ campaignId: a.id, to: '+14155550100' }); // 10:01 no_answer
    const b1 = await call({ campaignId: b.id, to: '+14155550103' }); // 10:02 carrier_failure → FAILED
    const t1 = await call({ to: '+14155550102' }); // 10:03 voicemail (test call)
    const live = await call({ campaignId: a.id, to: '+14155550109', unfinished: true }); // 10:04 QUEUED

    const ids = async (query: string) => {
      const res = await get(`/calls?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(res.body.items.length);
      return res.body.items.map((c: { id: string }) => c.id);
    };
    expect(await ids(`campaignId=${a.id}`)).toEqual([live, a2, a1]);
    expect(await ids(`campaignId=${b.id}`)).toEqual([b1]);
    expect(await ids('status=FAILED')).toEqual([b1]);
    expect(await ids('status=QUEUED')).toEqual([live]);
    expect(await ids('status=ENDED')).toEqual([t1, a2, a1]);
    expect(await ids('outcome=no_answer')).toEqual([a2]);
    expect(await ids('outcome=voicemail')).toEqual([t1]);
    expect(await ids(`campaignId=${a.id}&status=ENDED&outcome=completed`)).toEqual([a1]);
    expect(await ids('from=2026-03-01T10:01:00Z')).toEqual([live, t1, b1, a2]);
    expect(await ids('to=2026-03-01T10:02:00Z')).toEqual([a2, a1]); // `to` is exclusive
    expect(await ids('from=2026-03-01T10:01:00Z&to=2026-03-01T10:03:00.000Z')).toEqual([b1, a2]);
    expect(await ids('from=2026-03-01T12:01:00%2B02:00&to=2026-03-01T10:02:30Z')).toEqual([b1, a2]); // offsets are honoured
    expect(await ids('outcome=transferred')).toEqual([]);

    const paged = await get(`/calls?campaignId=${a.id}&limit=2&offset=2`);
    expect(paged.body).toEqual({ items: [expect.objectContaining({ id: a1 })], total: 3 });
  });

  it('CallLog.recordMany (decisions.md 16.31): several endings written in one statement read back through the API as record() writes them; a finished call keeps its first ending; an unknown call refuses the batch', async () => {
    const [voicemail, completed, alreadyEnded] = [
      await call({ to: '+14155550102', unfinished: true }),
      await call({ to: '+14155550105', unfinished: true }),
      await call({ to: '+14155550100' }), // no answer, ended before
    ];
    const log = t.get(CallLog);
    const before = (await get(`/calls/${alreadyEnded}`)).body;
    const at = clock.now();

    const answers = await t.get(TransactionHost).run(() =>
      log.recordMany([
        { callId: completed, result: sandboxResult('+14155550105', at) },
        { callId: voicemail, result: sandboxResult('+14155550102', at) },
        { callId: alreadyEnded, result: sandboxResult('+14155550105', at) },
      ]),
    );

    expect(answers.map((a) => [a.call.id, a.finishedNow, a.call.outcome])).toEqual([
      [completed, true, 'completed'],
      [voicemail, true, 'voicemail'],
      [alreadyEnded, false, 'no_answer'],
    ]);
    const expected = sandboxResult('+14155550105', at);
    const read = (await get(`/calls/${completed}`)).body;
    expect(read).toMatchObject({
      status: 'ENDED',
      outcome: 'completed',
      providerDisposition: expected.providerDisposition,
      answeredAt: expected.answeredAt!.toISOString(),
      endedAt: expected.endedAt.toISOString(),
      durationMs: expected.durationMs,
      transcript: expected.transcript,
    });
    expect((await get(`/calls/${voicemail}`)).body).toMatchObject({ status: 'ENDED', outcome: 'voicemail', durationMs: sandboxResult('+14155550102', at).durationMs });
    expect((await get(`/calls/${alreadyEnded}`)).body).toEqual(before);
    const [{ analysis }] = await t.dataSource.query(`SELECT analysis_status AS analysis FROM calls WHERE id = $1`, [completed]);
    expect(analysis).toBe('PENDING');

    const live = await call({ to: '+14155550106', unfinished: true });
    await expect(
      log.recordMany([
        { callId: live, result: sandboxResult('+14155550106', at) },
        { callId: '00000000-0000-4000-8000-000000000000', result: sandboxResult('+14155550106', at) },
      ]),
    ).rejects.toMatchObject({ code: 'call_not_found' });
    expect((await get(`/calls/${live}`)).body.status).toBe('QUEUED');
  });

  it("CallLog.recentOutcomes (the circuit breaker's window, decisions.md 16.35): ended calls of the campaign since the instant, newest first, up to the limit, of the given caller ids; live calls and other campaigns left out", async () => {
    const campaign = (await createCampaign(t, ws.key)).id as string;
    const other = (await createCampaign(t, ws.key)).id as string;
    const since = clock.now();
    const A = '+14155550100';
    const B = '+14155550199';
    await call({ campaignId: campaign, to: '+14155550101', from: A }); // busy
    await call({ campaignId: campaign, to: '+14155550103', from: B }); // carrier_failure
    await call({ campaignId: other, to: '+14155550103', from: A });
    await call({ campaignId: campaign, to: '+14155550103', from: A }); // carrier_failure
    await call({ campaignId: campaign, to: '+14155550105', from: A, unfinished: true }); // live: no outcome yet
    await call({ campaignId: campaign, to: '+14155550100', from: A }); // no_answer
    const log = t.get(CallLog);

    expect(await log.recentOutcomes(campaign, since, 10)).toEqual(['no_answer', 'carrier_failure', 'carrier_failure', 'busy']);
    expect(await log.recentOutcomes(campaign, since, 2)).toEqual(['no_answer', 'carrier_failure']);
    expect(await log.recentOutcomes(campaign, since, 10, [A])).toEqual(['no_answer', 'carrier_failure', 'busy']);
    expect(await log.recentOutcomes(campaign, since, 10, [B])).toEqual(['carrier_failure']);
    expect(await log.recentOutcomes(campaign, new Date(since.getTime() + 60_000), 10)).toEqual(['no_answer', 'carrier_failure', 'carrier_failure']);
  });

  it('GET /calls with a bad query → 400 invalid_query (with issues)', async () => {
    for (const query of [
      'from=yesterday',
      'to=2026-13-01T00:00:00Z',
      'from=2026-03-01 10:00',
      'limit=0',
      'limit=201',
      'offset=-1',
      'offset=abc',
      'status=DONE',
      'campaignId=abc',
      'outcome=',
      'unknown=1',
      'from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z',
    ]) {
      const res = await get(`/calls?${query}`);
      expectError(res, 400, 'invalid_query');
      expect(res.body.issues.length).toBeGreaterThan(0);
    }
  });

  it('GET /campaigns/{id}/activity: the latest 50 calls of that campaign only; unknown or foreign campaign → 404 campaign_not_found', async () => {
    const campaign = await createCampaign(t, ws.key);
    const elsewhere = await createCampaign(t, ws.key);
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) ids.push(await recordCall(t, { workspaceId: ws.workspaceId, campaignId: campaign.id, to: `+1415555${String(1000 + i)}`, unfinished: i % 2 === 0 }).then((id) => {
      clock.advance(1000);
      return id;
    }));
    await call({ campaignId: elsewhere.id, to: '+14155550105' });

    const res = await get(`/campaigns/${campaign.id}/activity`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['items']);
    expect(res.body.items.map((c: { id: string }) => c.id)).toEqual(ids.slice(3).reverse());
    expect(res.body.items.every((c: { campaignId: string }) => c.campaignId === campaign.id)).toBe(true);

    expect((await get(`/campaigns/${elsewhere.id}/activity`)).body.items).toHaveLength(1);
    expectError(await get('/campaigns/00000000-0000-4000-8000-000000000000/activity'), 404, 'campaign_not_found');
    expectError(await get('/campaigns/nope/activity'), 404, 'campaign_not_found');
    const other = await t.seed();
    expectError(await get(`/campaigns/${campaign.id}/activity`, other.key), 404, 'campaign_not_found');
  });

  it('scope calls.view is required to read calls (403 forbidden naming it)', async () => {
    const id = await call({ to: '+14155550105' });
    const campaign = await createCampaign(t, ws.key);
    const { key } = await t.addKey(ws.workspaceId, { scopes: ['campaigns.view', 'calls.edit'] });
    for (const path of ['/calls', `/calls/${id}`, `/campaigns/${campaign.id}/activity`]) {
      const res = await get(path, key);
      expectError(res, 403, 'forbidden');
      expect(res.body.requiredPermission).toBe('calls.view');
    }
  });

  it('PUT /calls/{id}/metrics/{key}: every API key gets 403 operator_only, and nothing changes', async () => {
    const campaign = await createCampaign(t, ws.key, {
      evaluationMetrics: [{ key: 'qualified', label: 'Qualified', allowedValues: ['yes', 'no'], prompt: 'Qualified?' }],
    });
    const id = await call({ campaignId: campaign.id, to: '+14155550105' });
    const before = (await get(`/calls/${id}`)).body;

    const put = (key: string, body: unknown) => t.http.put(`/calls/${id}/metrics/qualified`).set(bearer(key)).send(body as object);
    expectError(await put(ws.key, { value: 'yes' }), 403, 'operator_only');
    expectError(await put(ws.key, { value: 'not-allowed' }), 403, 'operator_only');
    expectError(await put(ws.key, { nonsense: true }), 403, 'operator_only');
    expectError(await t.http.put(`/calls/00000000-0000-4000-8000-000000000000/metrics/x`).set(bearer(ws.key)).send({ value: 'yes' }), 403, 'operator_only');
    const other = await t.seed();
    expectError(await put(other.key, { value: 'yes' }), 403, 'operator_only');

    const { key: viewOnly } = await t.addKey(ws.workspaceId, { scopes: ['calls.view'] });
    const scoped = await put(viewOnly, { value: 'yes' });
    expectError(scoped, 403, 'forbidden');
    expect(scoped.body.requiredPermission).toBe('calls.edit');

    expect((await get(`/calls/${id}`)).body).toEqual(before);
    expect(await countCalls(t)).toBe(1);
  });

  it('OpenAPI documents every member of the call response and of the test-call body', async () => {
    const id = await call({ to: '+14155550105' });
    const body = (await get(`/calls/${id}`)).body;
    const doc = await t.http.get('/docs-json');
    const schemas = doc.body.components.schemas;
    expect(Object.keys(schemas.CallResponse.properties).sort()).toEqual(Object.keys(body).sort());
    expect(Object.keys(schemas.MetricOverrideResponse.properties).sort()).toEqual(['originalValue', 'overriddenAt', 'value']);
    expect(Object.keys(schemas.PlaceTestCallDto.properties).sort()).toEqual(['agentId', 'fromPhoneNumberId', 'toNumber', 'variables']);
    expect(doc.body.paths['/calls/test'].post.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true })]),
    );
  });
});
