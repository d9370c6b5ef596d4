import { randomUUID } from 'node:crypto';
import { ALL_SCOPES, listRoutes, RouteInfo } from '@outreach/platform';
import { WORKSPACE_FEATURES } from '@outreach/workspaces';
import { bearer, Seeded, TestApp } from '../support/test-app';

/**
 * Scope matrix (issue 7, item 3), derived from the route metadata (listRoutes), so a new route
 * is covered without anyone adding it here. The guard runs before validation, so a plausible
 * request (random UUIDs for path ids, an empty JSON body) is enough to reach it.
 */
process.env.RATE_LIMIT_PER_MINUTE = '10000000';

type Res = { status: number; body: Record<string, unknown> };

describe('scope matrix over every registered route', () => {
  let t: TestApp;
  let ws: Seeded;
  let routes: RouteInfo[];

  beforeAll(async () => {
    t = await TestApp.create();
    await t.reset();
    ws = await t.seed({ features: [...WORKSPACE_FEATURES] });
    routes = listRoutes(t.app);
  });
  afterAll(() => t?.close());

  const call = async (route: RouteInfo, key?: string): Promise<Res> => {
    const url = route.path.replace(/:(\w+)/g, () => randomUUID());
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    let r = t.http[method](url);
    if (key) r = r.set(bearer(key));
    if (method !== 'get' && method !== 'delete') r = r.send({});
    const res = await r;
    return { status: res.status, body: res.body as Record<string, unknown> };
  };
  const label = (r: RouteInfo) => `${r.method} ${r.path}`;
  const isV1 = (r: RouteInfo) => r.path === '/v1' || r.path.startsWith('/v1/');

  it('a key holding every scope but the route\'s own → 403 forbidden naming that scope', async () => {
    const scoped = routes.filter((r) => r.rule?.kind === 'scope');
    expect(scoped.length).toBeGreaterThan(50);
    const keys = new Map<string, string>();
    for (const scope of ALL_SCOPES) {
      keys.set(scope, (await t.addKey(ws.workspaceId, { scopes: ALL_SCOPES.filter((s) => s !== scope) })).key);
    }
    const wrong: string[] = [];
    for (const route of scoped) {
      const scope = (route.rule as { scope: string }).scope;
      const res = await call(route, keys.get(scope));
      const got = { status: res.status, error: res.body.error, requiredPermission: res.body.requiredPermission };
      const want = { status: 403, error: 'forbidden', requiredPermission: scope };
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${label(route)}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
      // Control: the same request with the all-scopes key is not refused for a permission.
      const control = await call(route, ws.key);
      if (control.body.error === 'forbidden' || control.body.error === 'api_key_not_scoped') {
        wrong.push(`${label(route)}: the all-scopes key was refused with ${String(control.body.error)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a scope-less key outside /v1 → 403 api_key_not_scoped on every non-public route', async () => {
    const scopeless = await t.addKey(ws.workspaceId, { scopes: [] });
    const outside = routes.filter((r) => !isV1(r) && r.rule?.kind !== 'public');
    expect(outside.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    for (const route of outside) {
      const res = await call(route, scopeless.key);
      if (res.status !== 403 || res.body.error !== 'api_key_not_scoped') wrong.push(`${label(route)}: ${res.status} ${String(res.body.error)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a scope-less key on /v1 routes is not refused for its missing scopes', async () => {
    const scopeless = await t.addKey(ws.workspaceId, { scopes: [] });
    const v1 = routes.filter(isV1);
    expect(v1.length).toBeGreaterThan(5);
    const wrong: string[] = [];
    for (const route of v1) {
      const res = await call(route, scopeless.key);
      if (res.body.error === 'api_key_not_scoped' || res.body.error === 'forbidden') wrong.push(`${label(route)}: ${res.status} ${String(res.body.error)}`);
    }
    expect(wrong).toEqual([]);
    // and it really reaches the handler
    const me = await t.http.get('/v1/workspace').set(bearer(scopeless.key));
    expect({ status: me.status, id: me.body.id }).toEqual({ status: 200, id: ws.workspaceId });
  });

  it('public routes (and the OpenAPI document) answer without a key; no other route does', async () => {
    const wrong: string[] = [];
    const pub = routes.filter((r) => r.rule?.kind === 'public');
    expect(pub.map(label)).toEqual(expect.arrayContaining(['GET /health/live', 'GET /health/ready']));
    for (const route of pub) {
      // A CRM webhook names its connection: an unknown one is 404 (a real one unsigned is 401: test/crm).
      if (route.path.startsWith('/crm/webhooks/')) {
        const res = await t.http.post(route.path.replace(':connectionId', '5b0f3f7e-0f2e-4a57-9d4c-8f1f3a2b6c10')).send({ records: [] });
        if (res.status !== 404 || res.body.error !== 'crm_connection_not_found') wrong.push(`${label(route)} unknown connection: ${res.status} ${String(res.body.error)}`);
        continue;
      }
      // A chatbot widget has no API key but must carry a chatbot's embed key: an unknown one is 404 (test/knowledge).
      if (route.path === '/embed/chat') {
        const res = await t.http.post(route.path).set('X-Embed-Key', 'cbk_unknown').send({ message: 'hello' });
        if (res.status !== 404 || res.body.error !== 'chatbot_not_found') wrong.push(`${label(route)} unknown embed key: ${res.status} ${String(res.body.error)}`);
        continue;
      }
      // A provider webhook has no key but must carry the provider's signature: without one, 401.
      if (route.path.startsWith('/webhooks/')) {
        const res = await t.http.post(route.path.replace(':provider', 'sandbox')).send({ type: 'ended' });
        if (res.status !== 401 || res.body.error !== 'unauthorized') wrong.push(`${label(route)} unsigned: ${res.status} ${String(res.body.error)}`);
        continue;
      }
      const res = await call(route);
      if (res.status >= 400) wrong.push(`${label(route)}: ${res.status} ${String(res.body.error)}`);
    }
    for (const path of ['/docs-json']) {
      const res = await t.http.get(path);
      if (res.status !== 200) wrong.push(`GET ${path}: ${res.status}`);
    }
    for (const route of routes.filter((r) => r.rule?.kind !== 'public')) {
      const res = await call(route);
      if (res.status !== 401 || res.body.error !== 'unauthorized') wrong.push(`${label(route)} without a key: ${res.status} ${String(res.body.error)}`);
    }
    expect(wrong).toEqual([]);
  });
});
