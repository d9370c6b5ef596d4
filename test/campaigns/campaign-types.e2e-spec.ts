import { bearer, Seeded, TestApp } from '../support/test-app';
import { expectError } from './campaign-helpers';

const PLATFORM_TYPE = '00000000-0000-4000-8000-00000000c701';
const UNKNOWN = '3f1c2b8e-58a1-4b3c-9b2e-7d51c1d0e9a4';

describe('campaign types', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
  });

  const create = (body: Record<string, unknown>, k = ws.key) => t.http.post('/campaign-types').set(bearer(k)).send(body);

  it('POST creates an ACTIVE own type; GET lists own types (isOwn: true) and the platform types', async () => {
    const res = await create({
      name: 'Renewals',
      description: 'Renewal calls',
      extractionKeys: [{ name: 'renewal_date', description: 'When they renew', type: 'date' }, { name: 'plan', description: 'Plan' }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Renewals',
      description: 'Renewal calls',
      extractionKeys: [
        { name: 'renewal_date', type: 'date', description: 'When they renew' },
        { name: 'plan', type: 'string', description: 'Plan' },
      ],
      status: 'ACTIVE',
      isOwn: true,
    });
    const list = await t.http.get('/campaign-types').set(bearer(ws.key));
    expect(list.status).toBe(200);
    expect(list.body.campaignTypes[0]).toEqual(res.body);
    const platform = list.body.campaignTypes.filter((x: { isOwn: boolean }) => !x.isOwn);
    expect(platform.length).toBeGreaterThanOrEqual(3);
    expect(platform.map((x: { id: string }) => x.id)).toContain(PLATFORM_TYPE);

    const other = await t.seed();
    const theirs = await t.http.get('/campaign-types').set(bearer(other.key));
    expect(theirs.body.campaignTypes.map((x: { id: string }) => x.id)).not.toContain(res.body.id);
  });

  it('409 name_taken within the workspace (case-insensitive); other workspaces may reuse it', async () => {
    expect((await create({ name: 'Renewals' })).status).toBe(201);
    expectError(await create({ name: 'renewals' }), 409, 'name_taken');
    const other = await t.seed();
    expect((await create({ name: 'Renewals' }, other.key)).status).toBe(201);
  });

  it('400 invalid_body and reserved_extraction_key; nothing is created', async () => {
    for (const body of [{}, { name: '' }, { name: 'x', extractionKeys: [{ name: 'bad name', description: 'x' }] }, { name: 'x', extra: 1 }]) {
      expectError(await create(body), 400, 'invalid_body');
    }
    expectError(await create({ name: 'x', extractionKeys: [{ name: 'status', description: 'x' }] }), 400, 'reserved_extraction_key');
    const list = await t.http.get('/campaign-types').set(bearer(ws.key));
    expect(list.body.campaignTypes.filter((x: { isOwn: boolean }) => x.isOwn)).toEqual([]);
  });

  it('GET/PATCH/DELETE one type; platform types are readable but read-only; foreign ids are not found', async () => {
    const mine = (await create({ name: 'Mine' })).body;
    expect((await t.http.get(`/campaign-types/${mine.id}`).set(bearer(ws.key))).body).toEqual(mine);
    expect((await t.http.get(`/campaign-types/${PLATFORM_TYPE}`).set(bearer(ws.key))).body).toMatchObject({ id: PLATFORM_TYPE, isOwn: false });

    const patched = await t.http
      .patch(`/campaign-types/${mine.id}`)
      .set(bearer(ws.key))
      .send({ name: 'Mine v2', extractionKeys: [{ name: 'pet', description: 'Pet' }] });
    expect(patched.body).toMatchObject({ name: 'Mine v2', extractionKeys: [{ name: 'pet', type: 'string', description: 'Pet' }] });
    expectError(await t.http.patch(`/campaign-types/${mine.id}`).set(bearer(ws.key)).send({}), 400, 'no_fields_to_update');
    expectError(await t.http.patch(`/campaign-types/${PLATFORM_TYPE}`).set(bearer(ws.key)).send({ name: 'Hijack' }), 403, 'forbidden');
    expectError(await t.http.delete(`/campaign-types/${PLATFORM_TYPE}`).set(bearer(ws.key)), 403, 'forbidden');

    const other = await t.seed();
    expectError(await t.http.get(`/campaign-types/${mine.id}`).set(bearer(other.key)), 404, 'not_found');
    expectError(await t.http.patch(`/campaign-types/${mine.id}`).set(bearer(other.key)).send({ name: 'x' }), 404, 'not_found');
    expectError(await t.http.delete(`/campaign-types/${mine.id}`).set(bearer(other.key)), 404, 'not_found');
    expectError(await t.http.get(`/campaign-types/${UNKNOWN}`).set(bearer(ws.key)), 404, 'not_found');
    expectError(await t.http.get(`/campaign-types/nope`).set(bearer(ws.key)), 404, 'not_found');

    await t.http.delete(`/campaign-types/${mine.id}`).set(bearer(ws.key)).expect(204);
    expectError(await t.http.get(`/campaign-types/${mine.id}`).set(bearer(ws.key)), 404, 'not_found');
    // the name is free again once archived
    expect((await create({ name: 'Mine v2' })).status).toBe(201);
  });

  it('a campaign keeps the keys of a type archived after it was picked', async () => {
    const type = (await create({ name: 'Keys', extractionKeys: [{ name: 'pet', description: 'Pet' }] })).body;
    const campaign = await t.http
      .post('/v1/campaigns')
      .set(bearer(ws.key))
      .send({ name: 'C', channel: 'VOICE', source: 'CSV', campaignTypeId: type.id });
    await t.http.delete(`/campaign-types/${type.id}`).set(bearer(ws.key)).expect(204);
    const read = await t.http.get(`/v1/campaigns/${campaign.body.id}`).set(bearer(ws.key));
    expect(read.body).toMatchObject({ campaignTypeName: 'Keys', effectiveExtractionKeys: [{ name: 'pet', type: 'string', description: 'Pet' }] });
  });

  it('scopes: campaign_types.view to read, campaign_types.edit to change', async () => {
    const viewer = await t.addKey(ws.workspaceId, { scopes: ['campaign_types.view'] });
    expect((await t.http.get('/campaign-types').set(bearer(viewer.key))).status).toBe(200);
    const res = await create({ name: 'x' }, viewer.key);
    expectError(res, 403, 'forbidden');
    expect(res.body.requiredPermission).toBe('campaign_types.edit');
  });
});
