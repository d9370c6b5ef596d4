// A real worker process (node dist/apps/worker/src/main.js) killed with SIGKILL in the middle of a
// CRM import: a second worker picks the stalled BullMQ job up and the import resumes from its
// stored cursor. Pages committed before the kill are not read again; the page in flight is read
// again; no contact is added twice (decisions.md 31).
import { ChildProcess } from 'node:child_process';
import { createCampaign } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { waitFor } from '../support/tcp-proxy';
import { killProcess, spawnWorker } from '../support/worker-process';
import { count } from './crm-helpers';
import { HUBSPOT_TOKEN, StubCrmServer } from './stub-crm-server';

const CONTACTS = 600;

describe('a worker killed in the middle of a CRM import', () => {
  const stub = new StubCrmServer();
  let t: TestApp;
  let ws: Seeded;
  let first: ChildProcess | null = null;
  let second: ChildProcess | null = null;
  let env: Record<string, string>;

  beforeAll(async () => {
    await stub.start();
    env = { CRM_HUBSPOT_API_URL: stub.url, CRM_IMPORT_PAGE_SIZE: '100', CRM_RETRY_BASE_MS: '50' };
    Object.assign(process.env, env);
    t = await TestApp.create();
    await t.reset();
    ws = await t.seed({ features: ['crm'] });
  });

  afterAll(async () => {
    await killProcess(first, 'SIGKILL');
    await killProcess(second, 'SIGTERM');
    await t?.close();
    await stub.stop();
  });

  it('resumes from the stored cursor in another worker, without duplicates', async () => {
    stub.hubspotContacts = CONTACTS;
    const conn = await t.http.post('/crm/connections').set(bearer(ws.key)).send({ slug: 'hubspot', credentials: { accessToken: HUBSPOT_TOKEN } });
    expect(conn.status).toBe(201);
    const campaign = await createCampaign(t, ws.key, { source: 'CRM_MANUAL' });
    const pages = () => stub.seen(/^\/crm\/v3\/objects\/contacts$/).filter((r) => r.query.get('limit') === '100');
    // The fourth page request (after=300) is held: the worker is killed while waiting for it. (The
    // connect's own probe came before the hold, so the hold skips the three pages only.)
    const release = stub.hold(/^\/crm\/v3\/objects\/contacts$/, 3);

    first = await spawnWorker(env);
    const res = await t.http.post(`/campaigns/${campaign.id}/crm-imports`).set(bearer(ws.key)).send({ connectionId: conn.body.id });
    expect(res.status).toBe(202);
    await waitFor('the fourth page asked', () => pages().length >= 4, 30_000);
    const [mid] = await t.dataSource.query(`SELECT status, cursor, pages FROM crm_imports WHERE id = $1`, [res.body.id]);
    expect(mid).toEqual({ status: 'running', cursor: '300', pages: 3 });
    expect(await count(t, `SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1`, [campaign.id])).toBe(300);

    await killProcess(first, 'SIGKILL');
    release();
    second = await spawnWorker(env);
    const done = await waitFor(
      'the import resumed and completed',
      async () => {
        const r = await t.http.get(`/campaigns/${campaign.id}/crm-imports/${res.body.id}`).set(bearer(ws.key));
        return r.body.status === 'completed' ? r.body : null;
      },
      90_000,
      250,
    );
    expect(done).toMatchObject({ read: CONTACTS, imported: CONTACTS, duplicates: 0, pages: 6 });
    expect(await count(t, `SELECT count(DISTINCT phone)::int AS n FROM campaign_contacts WHERE campaign_id = $1`, [campaign.id])).toBe(CONTACTS);
    expect(await count(t, `SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1`, [campaign.id])).toBe(CONTACTS);
    const afters = pages().map((r) => r.query.get('after'));
    for (const a of [null, '100', '200']) expect(afters.filter((x) => x === a)).toHaveLength(1);
    expect(afters.filter((x) => x === '300')).toHaveLength(2);
  }, 150_000);
});
