import { createCampaign, expectError } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { connectSandbox, count } from './crm-helpers';

/*
 * defaultCrmSegmentId takes effect (decisions.md 31.17): a CRM import that names no segment reads
 * the campaign's default segment when it reads the campaign's default connection (or the campaign
 * names none); `segmentId: null` reads all contacts. The sandbox tells a segment's size at once,
 * so the import's answer shows which segment it will read (seg-7 holds 7 contacts; all contacts
 * is the sandbox's 100-contact default list, total unknown).
 */
describe('defaultCrmSegmentId (sandbox CRM)', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ features: ['crm'] });
  });

  const importInto = (campaignId: string, body: Record<string, unknown>) => t.http.post(`/campaigns/${campaignId}/crm-imports`).set(bearer(ws.key)).send(body);

  it("an import without segmentId reads the campaign's default segment; null reads all contacts; another CRM's import ignores it", async () => {
    const { connection } = await connectSandbox(t, ws.key);
    const { connection: other } = await connectSandbox(t, ws.key);
    const campaign = await createCampaign(t, ws.key, { source: 'CRM_MANUAL', defaultCrmConnectionId: connection.id, defaultCrmSegmentId: 'seg-7' });
    expect(campaign.defaultCrmSegmentId).toBe('seg-7');

    const byDefault = await importInto(campaign.id, { connectionId: connection.id });
    expect(byDefault.status).toBe(202);
    expect(byDefault.body).toMatchObject({ segmentId: 'seg-7', total: 7 });
    const named = await importInto(campaign.id, { connectionId: connection.id, segmentId: 'seg-3' });
    expect(named.body).toMatchObject({ segmentId: 'seg-3', total: 3 });
    const all = await importInto(campaign.id, { connectionId: connection.id, segmentId: null });
    expect(all.body).toMatchObject({ segmentId: null, total: null });
    const otherCrm = await importInto(campaign.id, { connectionId: other.id });
    expect(otherCrm.body).toMatchObject({ segmentId: null, total: null });

    // A campaign without a default connection: its default segment applies to any connection.
    const loose = await createCampaign(t, ws.key, { source: 'CRM_MANUAL', defaultCrmSegmentId: 'seg-12' });
    expect((await importInto(loose.id, { connectionId: other.id })).body).toMatchObject({ segmentId: 'seg-12', total: 12 });

    // A default segment the CRM does not have is the CRM's 404, and no import is written.
    const broken = await createCampaign(t, ws.key, { source: 'CRM_MANUAL', defaultCrmSegmentId: 'list-9' });
    expectError(await importInto(broken.id, { connectionId: connection.id }), 404, 'crm_resource_not_found');
    expect(await count(t, `SELECT count(*)::int AS n FROM crm_imports WHERE campaign_id = $1`, [broken.id])).toBe(0);
  });
});
