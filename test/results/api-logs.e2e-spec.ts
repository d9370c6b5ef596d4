import { ApiLogs } from '@outreach/results';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { expectError, Loose, pushLead, runningApiCampaign } from './results-helpers';

describe('API logs (GET /campaigns/{id}/api-logs)', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ features: ['api_results'] });
  });

  /**
   * Logs are buffered after the response ('finish') and written in batches (decisions.md 41.3):
   * write what is buffered, then read; bounded retries cover a 'finish' not yet emitted.
   */
  async function logsOf(campaignId: string, count: number, key = ws.key): Promise<Loose[]> {
    for (let i = 0; i < 100; i++) {
      await t.get(ApiLogs).flush();
      const res = await t.http.get(`/campaigns/${campaignId}/api-logs?limit=100`).set(bearer(key));
      if (res.status !== 200) throw new Error(`api-logs: ${res.status} ${JSON.stringify(res.body)}`);
      if (res.body.items.length >= count) return res.body.items;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`fewer than ${count} API logs for ${campaignId}`);
  }

  it('every /v1 request naming the campaign: route, status, error code, latency, key, request id; newest first', async () => {
    const c = await runningApiCampaign(t, ws.key, ws.workspaceId); // start went through /campaigns/{id}/start: not /v1
    // A log is written once its response is sent (res 'finish'): each request waits for its log
    // before the next one, so "newest first" is the order the requests were made in.
    const ok = await pushLead(t, ws.key, c.id, { idempotencyKey: 'a', phone: '+14155552671' });
    expect(ok.status).toBe(201);
    await logsOf(c.id, 1);
    await pushLead(t, ws.key, c.id, { idempotencyKey: 'a', phone: '+14155552672' }); // 422 reused
    await logsOf(c.id, 2);
    await t.http.get(`/v1/campaigns/${c.id}`).set(bearer(ws.key)).set('X-Request-Id', 'req-42');
    await logsOf(c.id, 3);
    await t.http.post(`/v1/campaigns/${c.id}/pause`).set(bearer(ws.key));
    await logsOf(c.id, 4);
    await pushLead(t, ws.key, c.id, { idempotencyKey: 'b', phone: '+14155552673' }); // 409 not accepting
    await t.http.get(`/campaigns/${c.id}/leads`).set(bearer(ws.key)); // not /v1: not logged

    const logs = await logsOf(c.id, 5);
    expect(logs).toHaveLength(5);
    expect(logs.map((l) => [l.method, l.route, l.status, l.error])).toEqual([
      ['POST', '/v1/campaigns/:campaignId/leads', 409, 'campaign_not_accepting'],
      ['POST', '/v1/campaigns/:id/pause', 200, null],
      ['GET', '/v1/campaigns/:id', 200, null],
      ['POST', '/v1/campaigns/:campaignId/leads', 422, 'idempotency_key_reused'],
      ['POST', '/v1/campaigns/:campaignId/leads', 201, null],
    ]);
    expect(logs[2]).toMatchObject({ requestId: 'req-42', keyId: ws.keyId, path: `/v1/campaigns/${c.id}` });
    expect(logs.every((l) => typeof l.latencyMs === 'number' && l.latencyMs >= 0 && l.id && l.createdAt)).toBe(true);
  });

  it('cursor pages, and another workspace sees neither the logs nor the campaign', async () => {
    const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
    for (let i = 0; i < 5; i++) await pushLead(t, ws.key, c.id, { idempotencyKey: `k${i}`, phone: `+1415555${String(4000 + i)}` });
    await logsOf(c.id, 5);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: { items: Array<{ id: string }>; nextCursor: string | null } } = await t.http
        .get(`/campaigns/${c.id}/api-logs?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
        .set(bearer(ws.key));
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((l) => l.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);

    const other = await t.seed();
    await pushLead(t, other.key, c.id, { idempotencyKey: 'x', phone: '+14155552671' }); // 404 for them, logged under their workspace
    expectError(await t.http.get(`/campaigns/${c.id}/api-logs`).set(bearer(other.key)), 404, 'campaign_not_found');
    expect((await logsOf(c.id, 5)).length).toBe(5);
  });

  it('404 campaign_not_found; 400 invalid_cursor; 403 without campaigns.view', async () => {
    const c = await runningApiCampaign(t, ws.key, ws.workspaceId);
    expectError(await t.http.get('/campaigns/7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01/api-logs').set(bearer(ws.key)), 404, 'campaign_not_found');
    expectError(await t.http.get('/campaigns/nope/api-logs').set(bearer(ws.key)), 404, 'campaign_not_found');
    expectError(await t.http.get(`/campaigns/${c.id}/api-logs?cursor=bad!`).set(bearer(ws.key)), 400, 'invalid_cursor');
    const key = await t.addKey(ws.workspaceId, { scopes: ['calls.view'] });
    expectError(await t.http.get(`/campaigns/${c.id}/api-logs`).set(bearer(key.key)), 403, 'forbidden');
  });
});
