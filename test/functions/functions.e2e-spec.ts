import { CustomFunctions } from '@outreach/functions';
import { bearer, Seeded, TestApp } from '../support/test-app';

type Res = { status: number; body: Record<string, unknown> };

const SECRET = 'Bearer sk_live_super_secret_value_123';

const fnBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'check_availability',
  description: 'Checks free slots for a site visit',
  parameters: { type: 'object', properties: { date: { type: 'string', format: 'date' } }, required: ['date'] },
  method: 'POST',
  url: 'https://crm.example.com/hooks/availability',
  headers: { Authorization: SECRET, 'X-Tenant': 'acme' },
  ...overrides,
});

function expectError(res: Res, status: number, code: string): void {
  expect({ status: res.status, error: res.body.error }).toEqual({ status, error: code });
  expect(typeof res.body.requestId).toBe('string');
}

function expectInvalid(res: Res, path: string): void {
  expectError(res, 400, 'invalid_body');
  expect((res.body.issues as Array<{ path: string }>).map((i) => i.path)).toContain(path);
}

describe('Custom functions (/functions)', () => {
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

  const post = (body: unknown, key = ws.key) => t.http.post('/functions').set(bearer(key)).send(body as object);
  const patch = (id: string, body: unknown, key = ws.key) => t.http.patch(`/functions/${id}`).set(bearer(key)).send(body as object);
  const get = (id: string, key = ws.key) => t.http.get(`/functions/${id}`).set(bearer(key));
  const count = async () => Number((await t.dataSource.query(`SELECT count(*) AS n FROM custom_functions`))[0].n);

  it('creates, lists and reads a function; header values are never returned, only their names', async () => {
    const res = await post(fnBody());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'check_availability',
      description: 'Checks free slots for a site visit',
      parameters: fnBody().parameters,
      method: 'POST',
      url: 'https://crm.example.com/hooks/availability',
      headerNames: ['Authorization', 'X-Tenant'],
      timeoutMs: 10000,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const list = await t.http.get('/functions').set(bearer(ws.key));
    const one = await get(res.body.id as string);
    expect(list.body).toEqual([res.body]);
    expect(one.body).toEqual(res.body);
    for (const r of [res, list, one]) expect(JSON.stringify(r.body)).not.toContain('sk_live_super_secret');
  });

  it('stores header values encrypted (AES-256-GCM), readable only by the service', async () => {
    const res = await post(fnBody());
    const [row] = await t.dataSource.query(`SELECT * FROM custom_functions WHERE id = $1`, [res.body.id]);
    expect(JSON.stringify(row)).not.toContain('sk_live_super_secret');
    expect(JSON.stringify(row)).not.toContain('acme');
    expect(row.headers_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    const executable = await t.get(CustomFunctions).executable(ws.workspaceId, res.body.id as string);
    expect(executable.headers).toEqual({ Authorization: SECRET, 'X-Tenant': 'acme' });
    // A sealed value moved to another row does not open there.
    const copy = await post(fnBody({ name: 'copy', headers: { A: 'b' } }));
    await t.dataSource.query(`UPDATE custom_functions SET headers_sealed = $1 WHERE id = $2`, [row.headers_sealed, copy.body.id]);
    await expect(t.get(CustomFunctions).executable(ws.workspaceId, copy.body.id as string)).rejects.toThrow();
  });

  it('409 name_taken per workspace (any case); other workspaces may reuse a name', async () => {
    await post(fnBody()).expect(201);
    expectError(await post(fnBody({ name: 'CHECK_AVAILABILITY' })), 409, 'name_taken');
    const other = await t.seed();
    expect((await post(fnBody(), other.key)).status).toBe(201);
    const second = await post(fnBody({ name: 'book_visit' }));
    expectError(await patch(second.body.id as string, { name: 'check_availability' }), 409, 'name_taken');
    expect(await count()).toBe(3);
  });

  it('400 invalid_body on every bound, with the path', async () => {
    expectInvalid(await post(fnBody({ name: '1st_function' })), 'name');
    expectInvalid(await post(fnBody({ name: 'has-dash' })), 'name');
    expectInvalid(await post(fnBody({ name: 'n'.repeat(65) })), 'name');
    expectInvalid(await post(fnBody({ description: '' })), 'description');
    expectInvalid(await post(fnBody({ description: 'd'.repeat(1001) })), 'description');
    expectInvalid(await post(fnBody({ parameters: { type: 'objectish' } })), 'parameters');
    expectInvalid(await post(fnBody({ parameters: { type: 'object', properties: { a: { minimum: 'zero' } } } })), 'parameters');
    expectInvalid(await post(fnBody({ parameters: { type: 'string' } })), 'parameters');
    expectInvalid(await post(fnBody({ parameters: [] })), 'parameters');
    expectInvalid(await post(fnBody({ parameters: { $schema: 'https://example.com/unknown-meta', type: 'object' } })), 'parameters');
    expectInvalid(await post(fnBody({ method: 'TRACE' })), 'method');
    expectInvalid(await post(fnBody({ url: 'ftp://example.com/file' })), 'url');
    expectInvalid(await post(fnBody({ url: 'not a url' })), 'url');
    expectInvalid(await post(fnBody({ url: 'https://user:password@example.com/hook' })), 'url');
    expectInvalid(await post(fnBody({ url: `https://example.com/${'a'.repeat(2048)}` })), 'url');
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v']));
    expectInvalid(await post(fnBody({ headers: many })), 'headers');
    expectInvalid(await post(fnBody({ headers: { 'X-Num': 5 } })), 'headers');
    expectInvalid(await post(fnBody({ headers: { 'Bad Header': 'v' } })), 'headers');
    expectInvalid(await post(fnBody({ headers: { 'X-Inject': 'a\r\nHost: evil' } })), 'headers');
    expectInvalid(await post(fnBody({ timeoutMs: 99 })), 'timeoutMs');
    expectInvalid(await post(fnBody({ timeoutMs: 30001 })), 'timeoutMs');
    expectInvalid(await post(fnBody({ retries: 3 })), 'retries');
    const { url: _u, ...noUrl } = fnBody();
    expectInvalid(await post(noUrl), 'url');
    expect(await count()).toBe(0);
    const edge = await post(fnBody({ name: 'n'.repeat(64), timeoutMs: 30000, method: 'DELETE', url: 'http://localhost:8080/hook', headers: Object.fromEntries(Object.entries(many).slice(0, 20)) }));
    expect(edge.status).toBe(201);
  });

  it('PATCH: partial; headers replace the whole set; {} → no_fields_to_update; a failed PATCH changes nothing', async () => {
    const created = await post(fnBody());
    const id = created.body.id as string;
    expectError(await patch(id, {}), 400, 'no_fields_to_update');
    expectInvalid(await patch(id, { colour: 'red' }), 'colour');
    expectInvalid(await patch(id, { name: null }), 'name');

    const before = (await get(id)).body;
    expectInvalid(await patch(id, { description: 'New', timeoutMs: 5 }), 'timeoutMs');
    expectInvalid(await patch(id, { description: 'New', parameters: { type: 42 } }), 'parameters');
    expect((await get(id)).body).toEqual(before);
    expect((await t.get(CustomFunctions).executable(ws.workspaceId, id)).headers.Authorization).toBe(SECRET);

    const renamed = await patch(id, { name: 'check_slots', timeoutMs: 2500 });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'check_slots', timeoutMs: 2500, headerNames: ['Authorization', 'X-Tenant'] });
    expect((await t.get(CustomFunctions).executable(ws.workspaceId, id)).headers).toEqual({ Authorization: SECRET, 'X-Tenant': 'acme' });

    const rekeyed = await patch(id, { headers: { 'X-Api-Key': 'k2' } });
    expect(rekeyed.body.headerNames).toEqual(['X-Api-Key']);
    expect((await t.get(CustomFunctions).executable(ws.workspaceId, id)).headers).toEqual({ 'X-Api-Key': 'k2' });
    const cleared = await patch(id, { headers: {} });
    expect(cleared.body.headerNames).toEqual([]);
    expect((await t.get(CustomFunctions).executable(ws.workspaceId, id)).headers).toEqual({});
  });

  it('DELETE → 204; then, and for every unknown, malformed or foreign id, 404 function_not_found', async () => {
    const created = await post(fnBody());
    const id = created.body.id as string;
    const del = await t.http.delete(`/functions/${id}`).set(bearer(ws.key));
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(await get(id), 404, 'function_not_found');
    expectError(await t.http.delete(`/functions/${id}`).set(bearer(ws.key)), 404, 'function_not_found');
    expectError(await patch(id, { description: 'x' }), 404, 'function_not_found');
    expectError(await get('not-a-uuid'), 404, 'function_not_found');
    expectError(await t.http.delete('/functions/not-a-uuid').set(bearer(ws.key)), 404, 'function_not_found');

    const other = await t.seed();
    const foreign = await post(fnBody(), other.key);
    const fid = foreign.body.id as string;
    expectError(await get(fid), 404, 'function_not_found');
    expectError(await patch(fid, { description: 'mine now' }), 404, 'function_not_found');
    expectError(await t.http.delete(`/functions/${fid}`).set(bearer(ws.key)), 404, 'function_not_found');
    expect((await t.http.get('/functions').set(bearer(ws.key))).body).toEqual([]);
    expect((await get(fid, other.key)).body.description).toBe(fnBody().description);
  });

  it('functions.view reads, functions.edit writes', async () => {
    const created = await post(fnBody());
    const viewer = await t.addKey(ws.workspaceId, { scopes: ['functions.view'] });
    expect((await get(created.body.id as string, viewer.key)).status).toBe(200);
    for (const res of [
      await post(fnBody({ name: 'other' }), viewer.key),
      await patch(created.body.id as string, { description: 'x' }, viewer.key),
      await t.http.delete(`/functions/${created.body.id}`).set(bearer(viewer.key)),
    ]) {
      expectError(res, 403, 'forbidden');
      expect(res.body.requiredPermission).toBe('functions.edit');
    }
    const agentsOnly = await t.addKey(ws.workspaceId, { scopes: ['agents.view'] });
    const res = await t.http.get('/functions').set(bearer(agentsOnly.key));
    expectError(res, 403, 'forbidden');
    expect(res.body.requiredPermission).toBe('functions.view');
  });
});
