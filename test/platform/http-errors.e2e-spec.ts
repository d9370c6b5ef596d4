import { bearer, Seeded, TestApp } from '../support/test-app';
import { ProbeModule } from '../support/probe.module';

describe('error model over HTTP (decisions.md 1.4, 1.5, 1.6, 1.8, 6.1)', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create({ imports: [ProbeModule] });
    await t.reset();
    ws = await t.seed();
  });
  afterAll(() => t.close());

  it('unknown route → 404 not_found, even without a bearer', async () => {
    const res = await t.http.get('/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: expect.any(String), requestId: expect.any(String) });
    expect(res.headers.allow).toBeUndefined();
    const wrongMethod = await t.http.delete('/v1/workspace').set(bearer(ws.key));
    expect([wrongMethod.status, wrongMethod.body.error]).toEqual([404, 'not_found']);
  });

  it('a method the path does not have → the contract\'s 404 not_found, with the methods it has in Allow', async () => {
    const wrongMethod = await t.http.delete('/v1/workspace').set(bearer(ws.key));
    expect([wrongMethod.status, wrongMethod.body.error, wrongMethod.headers.allow]).toEqual([404, 'not_found', 'GET, HEAD']);
    expect(wrongMethod.body.message).toBe('DELETE is not a method of /v1/workspace; it answers GET, HEAD');
    const agents = await t.http.put('/agents').set(bearer(ws.key)).send({});
    expect([agents.status, agents.body.error, agents.headers.allow]).toEqual([404, 'not_found', 'GET, HEAD, POST']);
    const one = await t.http.post('/agents/5b3f1c1e-8d2a-4c55-9a0e-2f1b7f7d0a01').set(bearer(ws.key)).send({});
    expect([one.status, one.headers.allow]).toEqual([404, 'DELETE, GET, HEAD, PATCH']);
    // The route exists: its own 404 (no such agent), without Allow.
    const missing = await t.http.get('/agents/5b3f1c1e-8d2a-4c55-9a0e-2f1b7f7d0a01').set(bearer(ws.key));
    expect([missing.status, missing.headers.allow]).toEqual([404, undefined]);
    expect(missing.body.message).not.toMatch(/is not a method/);
  });

  it('malformed JSON → 400 internal_error (after authentication)', async () => {
    const res = await t.http
      .post('/probe/validate')
      .set(bearer(ws.key))
      .set('Content-Type', 'application/json')
      .send('{"name": "x",');
    expect([res.status, res.body.error]).toEqual([400, 'internal_error']);
    expect(res.body.requestId).toEqual(expect.any(String));
    const anonymous = await t.http.post('/probe/validate').set('Content-Type', 'application/json').send('{bad');
    expect([anonymous.status, anonymous.body.error]).toEqual([401, 'unauthorized']);
  });

  it('body over 1 MB → 413 internal_error; just under passes the parser', async () => {
    const big = JSON.stringify({ name: 'x', pad: 'a'.repeat(1024 * 1024) });
    const res = await t.http.post('/probe/validate').set(bearer(ws.key)).set('Content-Type', 'application/json').send(big);
    expect([res.status, res.body.error]).toEqual([413, 'internal_error']);
    const under = JSON.stringify({ name: 'x', pad: 'a'.repeat(1000 * 1000) });
    const ok = await t.http.post('/probe/validate').set(bearer(ws.key)).set('Content-Type', 'application/json').send(under);
    // parsed fine; refused by the DTO because `pad` is not a member
    expect([ok.status, ok.body.error]).toEqual([400, 'invalid_body']);
  });

  it('a body nested deeper than 32 levels → invalid_body before any validator walks it (was a 500), with the status of the route', async () => {
    const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    const deep = nested(1300); // 2.6 KB: once overflowed class-transformer's stack
    const routes: Array<[string, number]> = [
      ['/v1/campaigns', 400],
      ['/v1/campaigns/00000000-0000-4000-8000-000000000000/leads', 422], // the lead push answers invalid_body with 422
      ['/agents', 400],
      ['/dnc', 400],
      ['/probe/validate', 400],
    ];
    for (const [route, status] of routes) {
      const res = await t.http.post(route).set(bearer(ws.key)).set('Content-Type', 'application/json').send(deep);
      expect([route, res.status, res.body.error]).toEqual([route, status, 'invalid_body']);
      expect(res.body.message).toMatch(/nested deeper than 32 levels/);
    }
    // At the limit the body reaches the route's own validation (here: unknown member `a`).
    const atLimit = await t.http.post('/probe/validate').set(bearer(ws.key)).set('Content-Type', 'application/json').send(nested(32));
    expect([atLimit.status, atLimit.body.error]).toEqual([400, 'invalid_body']);
    expect(atLimit.body.message).not.toMatch(/nested deeper/);
    // Nothing was stored by the refused requests.
    const agents = await t.http.get('/agents').set(bearer(ws.key));
    expect(agents.status).toBe(200);
    expect(JSON.stringify(agents.body)).not.toMatch(/"id"/);
  });

  it('validation → 400 invalid_body with issues [{path, message}], nested paths included', async () => {
    const res = await t.http
      .post('/probe/validate')
      .set(bearer(ws.key))
      .send({ name: '', count: 11, child: { label: 'way too long label' }, extra: 1 });
    expect([res.status, res.body.error]).toEqual([400, 'invalid_body']);
    const paths = (res.body.issues as Array<{ path: string; message: string }>).map((i) => i.path).sort();
    expect(paths).toEqual(expect.arrayContaining(['name', 'count', 'child.label', 'extra']));
    for (const issue of res.body.issues) expect(typeof issue.message).toBe('string');
  });

  it('a body that is not an object, or absent, is invalid_body', async () => {
    const arr = await t.http.post('/probe/validate').set(bearer(ws.key)).send([1, 2]);
    expect([arr.status, arr.body.error]).toEqual([400, 'invalid_body']);
    const none = await t.http.post('/probe/validate').set(bearer(ws.key));
    expect([none.status, none.body.error]).toEqual([400, 'invalid_body']);
    const text = await t.http.post('/probe/validate').set(bearer(ws.key)).set('Content-Type', 'text/plain').send('name=x');
    expect([text.status, text.body.error]).toEqual([400, 'invalid_body']);
  });

  it('bad query → 400 invalid_query', async () => {
    const res = await t.http.post('/probe/validate?limit=abc').set(bearer(ws.key)).send({ name: 'ok' });
    expect([res.status, res.body.error]).toEqual([400, 'invalid_query']);
    expect(res.body.issues[0].path).toBe('limit');
    const ok = await t.http.post('/probe/validate?limit=5').set(bearer(ws.key)).send({ name: 'ok' });
    expect(ok.status).toBe(200);
    expect(ok.body.query).toEqual({ limit: 5 });
  });

  it('a route may answer invalid_body with 422 (lead push style)', async () => {
    const res = await t.http.post('/v1/probe/validate-422').set(bearer(ws.key)).send({});
    expect([res.status, res.body.error]).toEqual([422, 'invalid_body']);
  });

  it('unexpected errors → 500 internal_error without stack or internals', async () => {
    const res = await t.http.get('/probe/crash').set(bearer(ws.key));
    expect([res.status, res.body.error]).toEqual([500, 'internal_error']);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('boom');
    expect(text).not.toContain('.ts:');
    expect(text).not.toMatch(/at \w+ \(/);
  });

  it('X-Request-Id: generated when absent, an incoming sane one honoured, a bad one replaced', async () => {
    const generated = await t.http.get('/v1/workspace').set(bearer(ws.key));
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const honoured = await t.http.get('/nope').set('X-Request-Id', 'trace-abc.123');
    expect(honoured.headers['x-request-id']).toBe('trace-abc.123');
    expect(honoured.body.requestId).toBe('trace-abc.123');
    const replaced = await t.http.get('/nope').set('X-Request-Id', 'bad id with spaces');
    expect(replaced.headers['x-request-id']).not.toBe('bad id with spaces');
    expect(replaced.body.requestId).toBe(replaced.headers['x-request-id']);
  });

  it('security headers are present', async () => {
    const res = await t.http.get('/health/live');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
