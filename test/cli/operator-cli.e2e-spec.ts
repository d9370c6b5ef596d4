import { CLI_MAIN, CliResult, ROOT, runCli } from '../support/cli-process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ApiKeyAdministration } from '@outreach/workspaces';
import { serviceMigrations } from '../support/service-modules';
import { bearer, TestApp } from '../support/test-app';

/*
 * The operator CLI as an operator runs it: the built dist/apps/cli/src/main.js in its own
 * process, against this jest worker's test database. Its effects are checked through the real
 * API (TestApp) and by reading the database back.
 */

const LAUNCHER = join(ROOT, 'bin', 'outreach-operator.js');
const SLOW = 60_000;
/** Two `migrate` runs over a fresh database (every migration, then none): 60 s was not enough on a slow CI machine. */
const MIGRATE_SLOW = 180_000;

/**
 * Runs one CLI command (dist's main.js, or with `entry: LAUNCHER` the package's bin). LOG_LEVEL is
 * left at its default so any log line on stdout would show.
 */
const cli = (args: string[], env: Record<string, string> = {}, entry = CLI_MAIN): Promise<CliResult> => runCli(args, { env, entry, keepLogLevel: false });

/** A successful command: exit 0, nothing on stderr, exactly one JSON document on stdout. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely, field by field
async function ok<T = Record<string, any>>(...args: string[]): Promise<T> {
  const result = await cli(args);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as T;
}

/** A refused command: the exit code, one line on stderr matching `message`, nothing on stdout. */
async function fails(code: number, message: RegExp, ...args: string[]): Promise<void> {
  const result = await cli(args);
  expect(result.code).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
}

describe('operator CLI (apps/cli)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // dist/ is built once per jest run (test/support/global-setup.js).
    t = await TestApp.create();
  }, SLOW);
  afterAll(() => t?.close());
  beforeEach(() => t.reset());

  /** Every row of every table (but the migrations log), to prove a refused command changed nothing. */
  async function snapshot(): Promise<Record<string, unknown>> {
    const tables: Array<{ tablename: string }> = await t.dataSource.query(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations' ORDER BY tablename`,
    );
    const state: Record<string, unknown> = {};
    for (const { tablename } of tables) {
      const [{ rows }] = await t.dataSource.query(`SELECT json_agg(x ORDER BY x::text) AS rows FROM "${tablename}" x`);
      state[tablename] = rows;
    }
    return state;
  }

  it(
    'workspace:create → key:create → the key works → key:list hides secrets → key:revoke → 401 invalid_api_key',
    async () => {
      const created = await ok('workspace:create', '--name', 'Acme Outreach', '--features', 'api_results', '--owner-email', 'Owner@Acme.test');
      expect(created.workspace).toMatchObject({ name: 'Acme Outreach', status: 'ACTIVE', features: ['api_results'], concurrency: 10 });
      const workspaceId: string = created.workspace.id;

      const issued = await ok('key:create', '--workspace', workspaceId, '--name', 'crm sync', '--scopes', 'campaigns.view,calls.edit');
      expect(issued).toMatchObject({ workspaceId, memberId: created.ownerMemberId, scopes: ['calls.edit', 'campaigns.view'], expiresAt: null });
      expect(issued.key).toMatch(/^pk_live_[0-9A-Za-z]{43}$/);
      expect(issued.key.startsWith(issued.prefix)).toBe(true);

      const me = await t.http.get('/v1/workspace').set(bearer(issued.key));
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: workspaceId, name: 'Acme Outreach', apiKeyId: issued.id, scopes: ['calls.edit', 'campaigns.view'] });

      const listed = await cli(['key:list', '--workspace', workspaceId]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).not.toContain(issued.key);
      expect(listed.stdout).not.toMatch(/hash/i);
      const { keys } = JSON.parse(listed.stdout);
      expect(keys).toEqual([
        expect.objectContaining({ id: issued.id, name: 'crm sync', prefix: issued.prefix, scopes: ['calls.edit', 'campaigns.view'], revokedAt: null }),
      ]);
      expect(Object.keys(keys[0]).sort()).toEqual(
        ['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'memberId', 'name', 'prefix', 'revokedAt', 'scopes'].sort(),
      );

      const revoked = await ok('key:revoke', '--id', issued.id);
      expect(revoked).toEqual({ id: issued.id, revokedAt: expect.any(String) });
      const after = await t.http.get('/v1/workspace').set(bearer(issued.key));
      expect({ status: after.status, error: after.body.error }).toEqual({ status: 401, error: 'invalid_api_key' });
    },
    SLOW,
  );

  it(
    "member:add + key:create --member → the member's key works; member:set-status SUSPENDED → 403 api_key_owner_inactive",
    async () => {
      const ws = await t.seed();
      const { member } = await ok('member:add', '--workspace', ws.workspaceId, '--email', 'analyst@acme.test', '--role', 'viewer');
      expect(member).toMatchObject({ workspaceId: ws.workspaceId, email: 'analyst@acme.test', role: 'viewer', status: 'ACTIVE' });
      const key = await ok('key:create', '--workspace', ws.workspaceId, '--name', 'analyst', '--member', member.id);
      expect(key.memberId).toBe(member.id);
      expect(key.scopes).toEqual([]);
      await t.http.get('/v1/workspace').set(bearer(key.key)).expect(200);

      const suspended = await ok('member:set-status', '--member', member.id, '--status', 'SUSPENDED');
      expect(suspended.member).toMatchObject({ id: member.id, status: 'SUSPENDED' });
      const res = await t.http.get('/v1/workspace').set(bearer(key.key));
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 403, error: 'api_key_owner_inactive' });
      await t.http.get('/v1/workspace').set(bearer(ws.key)).expect(200); // the owner's key is untouched
    },
    SLOW,
  );

  it(
    'workspace:set-status SUSPENDED → 403 workspace_suspended; workspace:get shows it',
    async () => {
      const ws = await t.seed();
      const { workspace } = await ok('workspace:set-status', '--workspace', ws.workspaceId, '--status', 'SUSPENDED');
      expect(workspace).toMatchObject({ id: ws.workspaceId, status: 'SUSPENDED' });
      const res = await t.http.get('/v1/workspace').set(bearer(ws.key));
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 403, error: 'workspace_suspended' });
      expect((await ok('workspace:get', '--workspace', ws.workspaceId)).workspace).toMatchObject({ status: 'SUSPENDED' });
    },
    SLOW,
  );

  it(
    'workspace:update toggles features and changes settings, visible in GET /v1/workspace',
    async () => {
      const ws = await t.seed({ features: ['api_results', 'email'] });
      const { workspace } = await ok(
        'workspace:update',
        '--workspace', ws.workspaceId,
        '--features', '-api_results,+crm,workflows',
        '--concurrency', '3',
        '--agent-quota', '7',
        '--trial-until', '2030-01-31T12:00:00Z',
        '--frozen', 'true',
        '--rate-limit', '120',
      );
      expect(workspace).toMatchObject({
        features: ['workflows', 'email', 'crm'],
        concurrency: 3,
        agentQuota: 7,
        trialUntil: '2030-01-31T12:00:00.000Z',
        activityFrozen: true,
        rateLimitPerMinute: 120,
      });
      const res = await t.http.get('/v1/workspace').set(bearer(ws.key));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        features: ['workflows', 'email', 'crm'],
        concurrency: 3,
        agentQuota: 7,
        trialUntil: '2030-01-31T12:00:00.000Z',
        activityFrozen: true,
      });

      const cleared = await ok('workspace:update', '--workspace', ws.workspaceId, '--trial-until', 'none', '--rate-limit', 'none', '--frozen', 'false');
      expect(cleared.workspace).toMatchObject({ trialUntil: null, rateLimitPerMinute: null, activityFrozen: false, concurrency: 3 });
    },
    SLOW,
  );

  it(
    'wallet:credit twice with the same reference: the second is replayed and the balance counts it once',
    async () => {
      const ws = await t.seed();
      const first = await ok('wallet:credit', '--workspace', ws.workspaceId, '--amount', '2500', '--reference', 'INV-0042');
      expect(first).toMatchObject({ replayed: false, balanceMinor: 2500 });
      expect(first.entry).toMatchObject({ kind: 'credit', amountMinor: 2500, balanceAfterMinor: 2500, currency: 'USD', reference: 'INV-0042' });

      const second = await ok('wallet:credit', '--workspace', ws.workspaceId, '--amount', '2500', '--reference', 'INV-0042');
      expect(second).toEqual({ entry: first.entry, balanceMinor: 2500, replayed: true });

      const ledger = await t.dataSource.query(`SELECT amount_minor FROM ledger_entries WHERE workspace_id = $1`, [ws.workspaceId]);
      expect(ledger).toEqual([{ amount_minor: '2500' }]);
      const [wallet] = await t.dataSource.query(`SELECT balance_minor FROM wallets WHERE workspace_id = $1`, [ws.workspaceId]);
      expect(wallet.balance_minor).toBe('2500');
    },
    SLOW,
  );

  it(
    'bad input: non-zero exit, one line on stderr, nothing on stdout, nothing changed in the database',
    async () => {
      const ws = await t.seed();
      const unknownId = '6f1c0d3e-2b7a-4c1e-9a55-0d6b8e2f4a11';
      const before = await snapshot();

      await fails(2, /--status must be one of ACTIVE, PENDING_APPROVAL, SUSPENDED, DELETED, INACTIVE, got "ARCHIVED"/, 'workspace:set-status', '--workspace', ws.workspaceId, '--status', 'ARCHIVED');
      await fails(2, /--amount must be a whole number, got "12\.5"/, 'wallet:credit', '--workspace', ws.workspaceId, '--amount', '12.5');
      await fails(2, /--scopes: unknown scope campaigns\.delete/, 'key:create', '--workspace', ws.workspaceId, '--name', 'x', '--scopes', 'campaigns.view,campaigns.delete');
      await fails(2, /required option '--workspace <id>' not specified/, 'key:create', '--name', 'x');
      await fails(2, /--expires-at must be an ISO-8601 date/, 'key:create', '--workspace', ws.workspaceId, '--name', 'x', '--expires-at', 'tomorrow');
      await fails(2, /unknown command 'teleport'/, 'teleport', '--workspace', ws.workspaceId);
      await fails(1, new RegExp(`^error: not_found: no workspace ${unknownId}`), 'wallet:credit', '--workspace', unknownId, '--amount', '100');
      await fails(1, /^error: invalid_request: concurrency must be a whole number from 1 to 10000/, 'workspace:update', '--workspace', ws.workspaceId, '--concurrency', '0', '--name', 'Renamed');

      expect(await snapshot()).toEqual(before);
      expect(await t.get(ApiKeyAdministration).list(ws.workspaceId)).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'bin/outreach-operator.js on a fresh build runs the command without rebuilding; --format table prints for people',
    async () => {
      const ws = await t.seed();
      const stamp = join(ROOT, 'dist', '.build-stamp'); // written by `npm run build` (jest's global setup)
      const builtAt = statSync(stamp).mtimeMs;

      const json = await cli(['key:list', '--workspace', ws.workspaceId], {}, LAUNCHER);
      expect({ code: json.code, stderr: json.stderr }).toEqual({ code: 0, stderr: '' });
      const { keys } = JSON.parse(json.stdout);
      expect(keys).toHaveLength(1);

      const table = await cli(['key:list', '--workspace', ws.workspaceId, '--format', 'table'], {}, LAUNCHER);
      expect({ code: table.code, stderr: table.stderr }).toEqual({ code: 0, stderr: '' });
      const [header, row, ...rest] = table.stdout.trimEnd().split('\n');
      expect(rest).toEqual([]);
      expect(header.split(/ {2,}/)).toEqual(['id', 'name', 'prefix', 'scopes', 'memberId', 'expiresAt', 'revokedAt', 'lastUsedAt', 'createdAt']);
      expect(row.split(/ {2,}/)).toEqual([keys[0].id, keys[0].name, keys[0].prefix, keys[0].scopes.join(','), keys[0].memberId, '-', '-', '-', keys[0].createdAt]);
      expect(header.indexOf('createdAt')).toBe(row.indexOf(keys[0].createdAt)); // aligned columns

      const workspace = await cli(['workspace:get', '--workspace', ws.workspaceId, '--format', 'table'], {}, LAUNCHER);
      expect(workspace.code).toBe(0);
      expect(workspace.stdout).toMatch(new RegExp(`^id {2,}${ws.workspaceId}$`, 'm'));
      expect(workspace.stdout).toMatch(/^status {2,}ACTIVE$/m);
      expect(workspace.stdout).toMatch(/^trialUntil {2,}-$/m);

      await fails(2, /--format must be one of json, table, got "xml"/, 'key:list', '--workspace', ws.workspaceId, '--format', 'xml');
      expect(statSync(stamp).mtimeMs).toBe(builtAt); // nothing was rebuilt
    },
    SLOW,
  );

  it(
    'migrate creates and migrates a fresh database, then has nothing left to apply',
    async () => {
      const url = new URL(process.env.DATABASE_URL!);
      const scratch = `${url.pathname.slice(1)}_migrate`;
      expect(scratch).toContain('test');
      const admin = new URL(url);
      admin.pathname = '/postgres';
      const dropScratch = async () => {
        const client = new Client({ connectionString: admin.toString() });
        await client.connect();
        try {
          await client.query(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
        } finally {
          await client.end();
        }
      };
      await dropScratch();
      try {
        url.pathname = `/${scratch}`;
        const env = { DATABASE_URL: url.toString() };
        const first = await cli(['migrate'], env);
        expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
        expect(JSON.parse(first.stdout)).toEqual({ applied: (serviceMigrations() as Function[]).map((m) => m.name) });
        const second = await cli(['migrate'], env);
        expect(second.code).toBe(0);
        expect(JSON.parse(second.stdout)).toEqual({ applied: [] });
      } finally {
        await dropScratch();
      }
    },
    MIGRATE_SLOW,
  );
});
