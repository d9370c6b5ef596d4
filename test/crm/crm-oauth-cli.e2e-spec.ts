import { CredentialSealer } from '@outreach/crm';
import { createCampaign } from '../campaigns/campaign-helpers';
import { runCli } from '../support/cli-process';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { count } from './crm-helpers';
import {
  PIPEDRIVE_AUTH_CODE,
  PIPEDRIVE_CLIENT_ID,
  PIPEDRIVE_CLIENT_SECRET,
  PIPEDRIVE_REDIRECT_URI,
  PIPEDRIVE_REFRESH_TOKEN,
  PIPEDRIVE_TOKEN,
  StubCrmServer,
} from './stub-crm-server';

/*
 * crm:connect-oauth as an operator runs it (the built CLI in its own process, decisions.md 31.18)
 * against the local stub's Pipedrive token endpoint and API: the authorization code is exchanged
 * (HTTP Basic client credentials, form body), the account is read with the access token, and the
 * tokens are stored sealed; refused codes and wrong providers change nothing.
 */
const stub = new StubCrmServer();

describe('operator CLI: crm:connect-oauth (Pipedrive against the local stub)', () => {
  let t: TestApp;
  let ws: Seeded;
  let env: Record<string, string>;

  const cli = (...args: string[]) => runCli(args, { env });
  const connect = (...extra: string[]) =>
    cli('crm:connect-oauth', '--workspace', ws.workspaceId, '--slug', 'pipedrive', '--code', PIPEDRIVE_AUTH_CODE, '--redirect-uri', PIPEDRIVE_REDIRECT_URI, ...extra);
  const connections = () => count(t, `SELECT count(*)::int AS n FROM crm_connections WHERE workspace_id = $1`, [ws.workspaceId]);

  beforeAll(async () => {
    await stub.start();
    env = {
      PUBLIC_BASE_URL: 'https://outreach.test',
      CRM_PIPEDRIVE_API_URL: stub.url,
      CRM_PIPEDRIVE_OAUTH_URL: stub.url,
      CRM_PIPEDRIVE_CLIENT_ID: PIPEDRIVE_CLIENT_ID,
      CRM_PIPEDRIVE_CLIENT_SECRET: PIPEDRIVE_CLIENT_SECRET,
    };
    Object.assign(process.env, { PUBLIC_BASE_URL: env.PUBLIC_BASE_URL, CRM_PIPEDRIVE_API_URL: stub.url });
    t = await TestApp.create();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await stub.stop();
  });
  beforeEach(async () => {
    stub.reset();
    await t.reset();
    ws = await t.seed({ features: ['crm'] });
  });

  it('exchanges the code, verifies the account and stores the tokens sealed; the connection works through the API', async () => {
    const result = await connect();
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const printed = JSON.parse(result.stdout);
    expect(printed).toMatchObject({ slug: 'pipedrive', name: 'Pipedrive', status: 'ACTIVE', providerEmail: 'jane@pipedrive.example', hasWebhookSecret: false });
    expect(result.stdout).not.toContain(PIPEDRIVE_TOKEN);
    expect(result.stdout).not.toContain(PIPEDRIVE_REFRESH_TOKEN);

    const [exchange] = stub.seen(/^\/oauth\/token$/);
    expect(exchange.method).toBe('POST');
    expect(Object.fromEntries(new URLSearchParams(exchange.body))).toEqual({ grant_type: 'authorization_code', code: PIPEDRIVE_AUTH_CODE, redirect_uri: PIPEDRIVE_REDIRECT_URI });
    expect(stub.seen(/^\/api\/v1\/users\/me$/).at(-1)!.headers.authorization).toBe(`Bearer ${PIPEDRIVE_TOKEN}`);

    const [row] = await t.dataSource.query(`SELECT sealed_credentials FROM crm_connections WHERE id = $1`, [printed.id]);
    expect(row.sealed_credentials).not.toContain(PIPEDRIVE_TOKEN);
    expect(t.get(CredentialSealer).open(row.sealed_credentials, printed.id)).toMatchObject({ accessToken: PIPEDRIVE_TOKEN, refreshToken: PIPEDRIVE_REFRESH_TOKEN, scope: 'base,contacts:read' });

    const listed = await t.http.get('/crm/connections').set(bearer(ws.key));
    expect(listed.body.connections.map((c: { id: string }) => c.id)).toEqual([printed.id]);
    stub.pipedrivePersons = 3;
    const campaign = await createCampaign(t, ws.key, { source: 'CRM_MANUAL' });
    const imported = await t.http.post(`/campaigns/${campaign.id}/crm-imports`).set(bearer(ws.key)).send({ connectionId: printed.id, segmentId: null });
    expect(imported.status).toBe(202);
  }, 60_000);

  it('refusals: a used or wrong code, an API-key or unknown provider, a malformed workspace; nothing is stored', async () => {
    expect((await connect()).code).toBe(0);
    await t.dataSource.query(`DELETE FROM crm_connections WHERE workspace_id = $1`, [ws.workspaceId]);
    const cases: Array<[string[], number, RegExp]> = [
      [['--slug', 'pipedrive', '--code', PIPEDRIVE_AUTH_CODE], 1, /invalid_credentials: Pipedrive refused the authorization code/], // used once already
      [['--slug', 'pipedrive', '--code', 'forged-code'], 1, /invalid_credentials/],
      [['--slug', 'sandbox', '--code', PIPEDRIVE_AUTH_CODE], 1, /invalid_request: Sandbox CRM connects with an API key/],
      [['--slug', 'salesforce', '--code', PIPEDRIVE_AUTH_CODE], 1, /unknown_crm/],
    ];
    for (const [args, code, message] of cases) {
      const result = await cli('crm:connect-oauth', '--workspace', ws.workspaceId, '--redirect-uri', PIPEDRIVE_REDIRECT_URI, ...args);
      expect({ args, code: result.code, stdout: result.stdout, lines: result.stderr.trim().split('\n').length }).toEqual({ args, code, stdout: '', lines: 1 });
      expect(result.stderr).toMatch(message);
    }
    const usage = await cli('crm:connect-oauth', '--workspace', 'not-a-uuid', '--slug', 'pipedrive', '--code', 'x', '--redirect-uri', PIPEDRIVE_REDIRECT_URI);
    expect(usage.code).toBe(2);
    const unconfigured = await runCli(['crm:connect-oauth', '--workspace', ws.workspaceId, '--slug', 'pipedrive', '--code', 'x', '--redirect-uri', PIPEDRIVE_REDIRECT_URI], {
      env: { ...env, CRM_PIPEDRIVE_CLIENT_ID: '', CRM_PIPEDRIVE_CLIENT_SECRET: '' },
    });
    expect(unconfigured.stderr).toMatch(/CRM_PIPEDRIVE_CLIENT_ID/);
    expect(await connections()).toBe(0);
  }, 90_000);
});
