import { MemberAdministration, WorkspaceAdministration } from '@outreach/workspaces';
import { ApiProcess, spawnApi } from '../support/api-process';
import { runCli } from '../support/cli-process';
import { Seeded, TestApp } from '../support/test-app';
import { killProcess } from '../support/worker-process';

/*
 * The API-key cache across processes (issue 19 item 2, decisions.md 41.1): two real API processes
 * keep resolved keys for 60 s here, so only the Redis announcement can explain a refusal within
 * a second. A change is made through another process (the operator CLI, or this jest process's
 * app), then each API process is asked 1 s after the change returned: the bound is the contract.
 */
const CACHE_TTL_MS = '60000';
const BOUND_MS = 1000;

describe('API-key cache: a change reaches every API process within 1 s', () => {
  let t: TestApp;
  let a: ApiProcess;
  let b: ApiProcess;
  let ws: Seeded;

  beforeAll(async () => {
    t = await TestApp.create();
    await t.reset();
    // One after the other: each boots (and checks migrations) on the same database.
    a = await spawnApi({ API_KEY_CACHE_TTL_MS: CACHE_TTL_MS });
    b = await spawnApi({ API_KEY_CACHE_TTL_MS: CACHE_TTL_MS });
  }, 90_000);
  afterAll(async () => {
    await killProcess(a?.child ?? null, 'SIGTERM');
    await killProcess(b?.child ?? null, 'SIGTERM');
    await t?.close();
  });
  beforeEach(async () => {
    ws = await t.seed();
  });

  async function call(api: ApiProcess, key: string): Promise<{ status: number; error?: string }> {
    const res = await fetch(`${api.baseUrl}/v1/workspace`, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { error?: string };
    return { status: res.status, error: body.error };
  }

  /** Waits until `bound` ms after `since` (a correctness bound, not a speed measurement). */
  async function boundAfter(since: number, bound = BOUND_MS): Promise<void> {
    const left = since + bound - Date.now();
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  }

  it('keys are served from the cache: a change written behind the service’s back is not seen within the TTL', async () => {
    expect(await call(a, ws.key)).toEqual({ status: 200, error: undefined });
    expect(await call(b, ws.key)).toEqual({ status: 200, error: undefined });
    // No announcement: only the TTL (60 s here, 5 s by default) would bring this change in.
    await t.dataSource.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [ws.keyId]);
    const wrote = Date.now();
    await boundAfter(wrote);
    expect(await call(a, ws.key)).toEqual({ status: 200, error: undefined });
    expect(await call(b, ws.key)).toEqual({ status: 200, error: undefined });
  });

  it('a key revoked through the operator CLI is refused by both API processes 1 s after the command returned', async () => {
    const other = await t.addKey(ws.workspaceId);
    for (const api of [a, b]) {
      expect(await call(api, ws.key)).toEqual({ status: 200, error: undefined });
      expect(await call(api, other.key)).toEqual({ status: 200, error: undefined });
    }
    const revoke = await runCli(['key:revoke', '--id', ws.keyId]);
    expect(revoke.code).toBe(0);
    expect(JSON.parse(revoke.stdout)).toMatchObject({ id: ws.keyId });
    await boundAfter(Date.now());
    for (const api of [b, a]) {
      expect(await call(api, ws.key)).toEqual({ status: 401, error: 'invalid_api_key' });
      // Only that key: the workspace's other key stays cached and accepted.
      expect(await call(api, other.key)).toEqual({ status: 200, error: undefined });
    }
  });

  it('suspending the workspace, then the acting member, reaches both API processes within 1 s', async () => {
    for (const api of [a, b]) expect(await call(api, ws.key)).toEqual({ status: 200, error: undefined });

    await t.get(WorkspaceAdministration).setStatus(ws.workspaceId, 'SUSPENDED');
    await boundAfter(Date.now());
    for (const api of [a, b]) expect(await call(api, ws.key)).toEqual({ status: 403, error: 'workspace_suspended' });

    await t.get(WorkspaceAdministration).setStatus(ws.workspaceId, 'ACTIVE');
    await boundAfter(Date.now());
    for (const api of [a, b]) expect(await call(api, ws.key)).toEqual({ status: 200, error: undefined });

    await t.get(MemberAdministration).setStatus(ws.ownerMemberId, 'SUSPENDED');
    await boundAfter(Date.now());
    for (const api of [a, b]) expect(await call(api, ws.key)).toEqual({ status: 403, error: 'api_key_owner_inactive' });
  });

  it('a cached key is refused once it expires: expiry is checked on every request', async () => {
    const expiring = await t.addKey(ws.workspaceId, { expiresAt: new Date(Date.now() + 1500) });
    for (const api of [a, b]) expect(await call(api, expiring.key)).toEqual({ status: 200, error: undefined });
    await boundAfter(new Date(expiring.expiresAt!).getTime(), 50);
    for (const api of [a, b]) expect(await call(api, expiring.key)).toEqual({ status: 401, error: 'invalid_api_key' });
  });
});
