import { WorkspaceAdministration } from '@outreach/workspaces';
import { Client } from 'pg';
import { addContacts, createCampaign, credit, expectError, readCampaign, uniqueName } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { activeWorkflow, countRows, createWorkflow } from './workflow-helpers';

/*
 * Issue 13 item 3: journey campaigns (channel CUSTOM + workflowId) through the real workflows
 * module — no fake WorkflowDirectory: workflow_not_found, workflow_not_active,
 * campaign_workflow_not_active, journey_campaign_source_unsupported, journey_campaign_contact_cap,
 * journey_campaign_live_cap and journey_campaign_action_unsupported.
 */
describe('journey campaigns', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ features: ['workflows'] });
  });

  const post = (path: string, body: unknown = {}, key = ws.key) => t.http.post(path).set(bearer(key)).send(body as object);
  const create = (body: Record<string, unknown>, key = ws.key) => post('/v1/campaigns', { name: uniqueName(), channel: 'CUSTOM', source: 'CSV', ...body }, key);

  /** Seeds contacts with SQL (one statement, on a connection of its own: the API's pool has a 700 ms query timeout). */
  async function seedContacts(campaignId: string, n: number, status = 'PENDING'): Promise<void> {
    const db = new Client({ connectionString: t.config.databaseUrl });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO campaign_contacts (campaign_id, workspace_id, phone, status, attempts)
         SELECT $1, $2, '+1415' || lpad(i::text, 7, '0'), $3, 0 FROM generate_series(1, ${n}) i`,
        [campaignId, ws.workspaceId, status],
      );
    } finally {
      await db.end();
    }
  }

  it('create: 404 workflow_not_found (unknown, or the feature off), 409 workflow_not_active (DRAFT, archived); nothing created', async () => {
    expectError(await create({ workflowId: '7a0e6f43-4f43-4a8e-9a55-3c1f0f1b0a01' }), 404, 'workflow_not_found');
    const draft = await createWorkflow(t, ws.key);
    const refused = await create({ workflowId: draft.id });
    expectError(refused, 409, 'workflow_not_active');
    expect(refused.body.message).toBe('the workflow is DRAFT');
    const archived = await post(`/workflows/${draft.id}/archive`, { revision: 1 });
    expect(archived.status).toBe(200);
    expectError(await create({ workflowId: draft.id }), 409, 'workflow_not_active');

    const active = await activeWorkflow(t, ws.key);
    await t.get(WorkspaceAdministration).update(ws.workspaceId, { featureChanges: ['-workflows'] });
    expectError(await create({ workflowId: active.id }), 404, 'workflow_not_found');
    expect(await countRows(t, 'campaigns')).toBe(0);

    await t.get(WorkspaceAdministration).update(ws.workspaceId, { featureChanges: ['+workflows'] });
    const ok = await create({ workflowId: active.id });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ channel: 'CUSTOM', workflowId: active.id });
  });

  it('a workflow of another workspace is not found', async () => {
    const other = await t.seed({ features: ['workflows'] });
    const theirs = await activeWorkflow(t, other.key);
    expectError(await create({ workflowId: theirs.id }), 404, 'workflow_not_found');
    expect(await countRows(t, 'campaigns')).toBe(0);
  });

  it('400 journey_campaign_source_unsupported for a CRM source; API and CSV are accepted', async () => {
    const w = await activeWorkflow(t, ws.key);
    expectError(await create({ workflowId: w.id, source: 'CRM_MANUAL' }), 400, 'journey_campaign_source_unsupported');
    expect(await countRows(t, 'campaigns')).toBe(0);
    expect((await create({ workflowId: w.id, source: 'API' })).status).toBe(201);
    expect((await create({ workflowId: w.id, source: 'CSV' })).status).toBe(201);
  });

  it('start: 400 campaign_workflow_not_active once the workflow is archived (campaign unchanged); an ACTIVE one starts', async () => {
    await credit(t, ws.workspaceId);
    const w = await activeWorkflow(t, ws.key);
    const c = await createCampaign(t, ws.key, { channel: 'CUSTOM', workflowId: w.id });
    await addContacts(t, ws.key, c.id, ['+14155552671']);
    expect((await post(`/workflows/${w.id}/archive`, { revision: w.revision })).status).toBe(200);
    const refused = await post(`/campaigns/${c.id}/start`);
    expectError(refused, 400, 'campaign_workflow_not_active');
    expect(refused.body.message).toContain('archived');
    expect((await readCampaign(t, ws.key, c.id)).status).toBe('DRAFT');

    const other = await activeWorkflow(t, ws.key);
    const c2 = await createCampaign(t, ws.key, { channel: 'CUSTOM', workflowId: other.id });
    await addContacts(t, ws.key, c2.id, ['+14155552671']);
    // Deleting the workflow is "no longer exists" at start.
    expect((await t.http.delete(`/workflows/${other.id}?revision=${other.revision}`).set(bearer(ws.key))).status).toBe(204);
    expectError(await post(`/campaigns/${c2.id}/start`), 400, 'campaign_workflow_not_active');

    const third = await activeWorkflow(t, ws.key);
    const c3 = await createCampaign(t, ws.key, { channel: 'CUSTOM', workflowId: third.id });
    await addContacts(t, ws.key, c3.id, ['+14155552671']);
    const started = await post(`/campaigns/${c3.id}/start`);
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('RUNNING');
  });

  it('restart and contact retry → 400 journey_campaign_action_unsupported, nothing reset', async () => {
    await credit(t, ws.workspaceId);
    const w = await activeWorkflow(t, ws.key);
    const c = await createCampaign(t, ws.key, { channel: 'CUSTOM', workflowId: w.id });
    await addContacts(t, ws.key, c.id, ['+14155552671']);
    expect((await post(`/campaigns/${c.id}/start`)).status).toBe(200);
    const [contact] = (await t.http.get(`/campaigns/${c.id}/leads`).set(bearer(ws.key))).body.items;
    await t.dataSource.query(`UPDATE campaign_contacts SET status = 'FAILED' WHERE id = $1`, [contact.id]);
    expectError(await post(`/campaigns/${c.id}/contacts/${contact.id}/retry`), 400, 'journey_campaign_action_unsupported');
    expect((await t.dataSource.query(`SELECT status FROM campaign_contacts WHERE id = $1`, [contact.id]))[0].status).toBe('FAILED');
    expect((await post(`/campaigns/${c.id}/stop`)).status).toBe(200);
    expectError(await post(`/campaigns/${c.id}/restart`), 400, 'journey_campaign_action_unsupported');
    expect((await readCampaign(t, ws.key, c.id)).status).toBe('CANCELED');
  });

  it('400 journey_campaign_contact_cap past 50,000 contacts (nothing added); a plain campaign takes them', async () => {
    const w = await activeWorkflow(t, ws.key);
    const journey = await createCampaign(t, ws.key, { channel: 'CUSTOM', workflowId: w.id });
    await seedContacts(journey.id, 49_999);
    await addContacts(t, ws.key, journey.id, ['+14155550001']); // the 50,000th fits
    const refused = await post(`/campaigns/${journey.id}/contacts`, [{ phone: '+14155550002' }, { phone: '+14155550003' }]);
    expectError(refused, 400, 'journey_campaign_contact_cap');
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1`, [journey.id]);
    expect(n).toBe(50_000);

    const plain = await createCampaign(t, ws.key, { channel: 'VOICE' });
    await seedContacts(plain.id, 50_000);
    expect((await post(`/campaigns/${plain.id}/contacts`, [{ phone: '+14155550002' }])).status).toBe(201);
  }, 60_000);

  it('PATCHing a campaign of more than 50,000 contacts into a journey → 400 journey_campaign_contact_cap, unchanged', async () => {
    const w = await activeWorkflow(t, ws.key);
    const c = await createCampaign(t, ws.key, { channel: 'CUSTOM' });
    await seedContacts(c.id, 50_001);
    expectError(await t.http.patch(`/v1/campaigns/${c.id}`).set(bearer(ws.key)).send({ workflowId: w.id }), 400, 'journey_campaign_contact_cap');
    expect((await readCampaign(t, ws.key, c.id)).workflowId).toBeNull();
    const small = await createCampaign(t, ws.key, { channel: 'CUSTOM' });
    await seedContacts(small.id, 10);
    expect((await t.http.patch(`/v1/campaigns/${small.id}`).set(bearer(ws.key)).send({ workflowId: w.id })).status).toBe(200);
  }, 60_000);

  it('an upload of more than 50,000 rows → 400 journey_campaign_contact_cap; no campaign, no contact', async () => {
    const w = await activeWorkflow(t, ws.key);
    const rows = Array.from({ length: 50_001 }, (_, i) => `+1415${String(2_000_000 + i).padStart(7, '0')}`);
    const up = await t.http.post('/uploads').set(bearer(ws.key)).attach('file', Buffer.from(['phone', ...rows].join('\n')), 'leads.csv');
    expect(up.status).toBe(201);
    expectError(await create({ workflowId: w.id, uploadId: up.body.uploadId, phoneColumn: 'phone' }), 400, 'journey_campaign_contact_cap');
    expect(await countRows(t, 'campaigns')).toBe(0);
    expect(await countRows(t, 'campaign_contacts')).toBe(0);
  }, 60_000);

  it('429 journey_campaign_live_cap with Retry-After while 5,000 leads are pending or in flight; none added', async () => {
    await credit(t, ws.workspaceId);
    const w = await activeWorkflow(t, ws.key);
    const c = await createCampaign(t, ws.key, { channel: 'CUSTOM', workflowId: w.id, source: 'API' });
    expect((await post(`/campaigns/${c.id}/start`)).status).toBe(200);
    await seedContacts(c.id, 4_999);
    const first = await post(`/v1/campaigns/${c.id}/leads`, { idempotencyKey: 'lead-1', phone: '+14155550001' });
    expect(first.status).toBe(201);

    const refused = await post(`/v1/campaigns/${c.id}/leads`, { idempotencyKey: 'lead-2', phone: '+14155550002' });
    expectError(refused, 429, 'journey_campaign_live_cap');
    expect(refused.headers['retry-after']).toBe('30');
    const count = async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1`, [c.id]))[0].n;
    expect(await count()).toBe(5_000);

    // A lead that ended makes room.
    await t.dataSource.query(`UPDATE campaign_contacts SET status = 'COMPLETED' WHERE id = (SELECT id FROM campaign_contacts WHERE campaign_id = $1 LIMIT 1)`, [c.id]);
    expect((await post(`/v1/campaigns/${c.id}/leads`, { idempotencyKey: 'lead-2', phone: '+14155550002' })).status).toBe(201);
    expect(await count()).toBe(5_001);
  }, 60_000);
});
