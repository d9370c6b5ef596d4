// The queues dashboard (Bull Board) at /admin/queues: absent without ADMIN_TOKEN, behind it with it,
// and beside the API's own authentication without touching it.
import { registeredWorkerQueues } from '@outreach/platform';
import { bearer, TestApp } from '../support/test-app';

const TOKEN = 'admin-token-for-tests-0123456789';
const basic = (user: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

describe('queues dashboard without ADMIN_TOKEN', () => {
  let t: TestApp;

  beforeAll(async () => {
    delete process.env.ADMIN_TOKEN;
    t = await TestApp.create();
  });
  afterAll(async () => {
    await t.close();
  });

  it('does not exist: 404 not_found, as any unknown route, even with a credential', async () => {
    const unknown = await t.http.get('/admin/nothing-here');
    for (const path of ['/admin/queues', '/admin/queues/api/queues', '/admin/queues/static/js/main.js']) {
      const res = await t.http.get(path).set(bearer('anything-at-all-1234'));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ ...unknown.body, requestId: res.headers['x-request-id'] });
      expect(res.body.error).toBe('not_found');
    }
  });
});

describe('queues dashboard with ADMIN_TOKEN', () => {
  let t: TestApp;

  beforeAll(async () => {
    process.env.ADMIN_TOKEN = TOKEN;
    t = await TestApp.create();
  });
  afterAll(async () => {
    delete process.env.ADMIN_TOKEN;
    await t.close();
  });

  it('401 unauthorized without the token or with a wrong one, with a Basic challenge for browsers', async () => {
    for (const headers of [{}, bearer('wrong-token-0123456789abcdef'), bearer(`${TOKEN}x`), basic('admin', 'wrong'), { Authorization: TOKEN }]) {
      const res = await t.http.get('/admin/queues').set(headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'unauthorized', message: expect.any(String), requestId: res.headers['x-request-id'] });
      expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
    }
    const api = await t.http.get('/admin/queues/api/queues');
    expect(api.status).toBe(401);
  });

  it('an API key is not an admin token', async () => {
    await t.reset();
    const ws = await t.seed();
    expect((await t.http.get('/admin/queues').set(bearer(ws.key))).status).toBe(401);
  });

  it('serves the dashboard with Authorization: Bearer <token>, or Basic with the token as password', async () => {
    for (const headers of [bearer(TOKEN), basic('operator', TOKEN), basic('', TOKEN)]) {
      const page = await t.http.get('/admin/queues').set(headers);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('<base href="/admin/queues/"');
      expect(page.headers['cache-control']).toBe('no-store');
    }
    const queues = await t.http.get('/admin/queues/api/queues').set(bearer(TOKEN));
    expect(queues.status).toBe(200);
    expect(queues.body.queues.map((q: { name: string }) => q.name).sort()).toEqual(['agents', 'attempts', 'calls', 'campaigns', 'crm', 'exports', 'knowledge', 'messaging', 'notifications', 'outreach', 'results', 'workflows']);
  });

  it('shows every queue the worker consumes (apps/api lists them: a new queue must be added there)', async () => {
    require('../../apps/worker/src/worker.module'); // its modules declare their queues with workerQueues()
    const queues = await t.http.get('/admin/queues/api/queues').set(bearer(TOKEN));
    expect(queues.body.queues.map((q: { name: string }) => q.name).sort()).toEqual([...registeredWorkerQueues()].sort());
  });

  it('its actions work through the API’s pipeline (helmet, JSON body): pause and resume a queue', async () => {
    const paused = await t.http.put('/admin/queues/api/queues/results/pause').set(bearer(TOKEN)).send({});
    expect(paused.status).toBe(200);
    const isPaused = async () =>
      (await t.http.get('/admin/queues/api/queues').set(bearer(TOKEN))).body.queues.find((q: { name: string }) => q.name === 'results').isPaused;
    expect(await isPaused()).toBe(true);
    expect((await t.http.put('/admin/queues/api/queues/results/resume').set(bearer(TOKEN)).send({})).status).toBe(200);
    expect(await isPaused()).toBe(false);
    expect((await t.http.put('/admin/queues/api/queues/results/pause')).status).toBe(401);
  });

  it('leaves the API alone: the admin token is no API key, and API routes keep their errors', async () => {
    const res = await t.http.get('/v1/workspace').set(bearer(TOKEN));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_api_key');
    expect(res.headers['www-authenticate'] ?? '').not.toMatch(/Basic/);
    expect((await t.http.get('/admin/other')).status).toBe(404);
    expect((await t.http.get('/health/live')).status).toBe(200);
  });
});
