import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli-process';
import { bearer, Seeded, TestApp } from '../support/test-app';

/* number:add and carrier:set as an operator runs them: the built CLI in its own process. */


const cli = (args: string[]) => runCli(args);

describe('operator CLI: number:add and carrier:set', () => {
  let t: TestApp;
  let ws: Seeded;

  beforeAll(async () => {
    // dist/ is built once per jest run (test/support/global-setup.js).
    t = await TestApp.create();
  }, 60_000);
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed();
  });

  const numbers = async () => (await t.http.get('/phone-numbers').set(bearer(ws.key))).body.phoneNumbers;

  it('adds numbers (carrier, inbound) and switches a carrier off and on', async () => {
    const added = await cli(['number:add', '--workspace', ws.workspaceId, '--e164', '+14155550101']);
    expect({ code: added.code, stderr: added.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(added.stdout)).toMatchObject({ e164: '+14155550101', carrier: 'sandbox', inbound: false, carrierEnabled: true });

    const inbound = await cli(['number:add', '--workspace', ws.workspaceId, '--e164', '+14155550102', '--carrier', 'acme', '--inbound']);
    expect(inbound.code).toBe(0);
    expect(JSON.parse(inbound.stdout)).toMatchObject({ carrier: 'acme', inbound: true });

    const off = await cli(['carrier:set', '--workspace', ws.workspaceId, '--carrier', 'acme', '--enabled', 'false']);
    expect(off.code).toBe(0);
    expect(JSON.parse(off.stdout)).toEqual({ workspaceId: ws.workspaceId, carrier: 'acme', enabled: false });
    expect((await numbers()).map((n: { e164: string; carrierEnabled: boolean }) => [n.e164, n.carrierEnabled])).toEqual([
      ['+14155550101', true],
      ['+14155550102', false],
    ]);
    expect((await cli(['carrier:set', '--workspace', ws.workspaceId, '--carrier', 'acme', '--enabled', 'true'])).code).toBe(0);
    expect((await numbers())[1].carrierEnabled).toBe(true);
  }, 60_000); // six CLI processes: give them time on a loaded machine

  it('refuses bad input with one line on stderr and changes nothing', async () => {
    for (const args of [
      ['number:add', '--workspace', ws.workspaceId, '--e164', '4155550101'],
      ['number:add', '--workspace', 'not-a-uuid', '--e164', '+14155550101'],
      ['number:add', '--workspace', ws.workspaceId],
      ['carrier:set', '--workspace', ws.workspaceId, '--carrier', 'acme', '--enabled', 'maybe'],
    ]) {
      const result = await cli(args);
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await numbers()).toEqual([]);
  }, 60_000);

  it('carrier:configure serves a carrier by a real provider with credentials read from a file: sealed at rest, never printed; missing ones are refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'carrier-'));
    const token = `tok-${Math.random().toString(36).slice(2)}`;
    const file = join(dir, 'twilio.json');
    writeFileSync(file, JSON.stringify({ accountSid: 'AC0123', authToken: token }));
    const configured = await cli(['carrier:configure', '--workspace', ws.workspaceId, '--carrier', 'twilio', '--adapter', 'twilio', '--credentials-file', file]);
    expect({ code: configured.code, stderr: configured.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(configured.stdout)).toEqual({ workspaceId: ws.workspaceId, carrier: 'twilio', adapter: 'twilio', enabled: true });
    const [row] = await t.dataSource.query(`SELECT adapter, credentials_sealed FROM telephony_carriers WHERE workspace_id = $1 AND name = 'twilio'`, [ws.workspaceId]);
    expect(row.adapter).toBe('twilio');
    expect(row.credentials_sealed).not.toContain(token);
    expect(Buffer.from(row.credentials_sealed, 'base64').toString('latin1')).not.toContain(token);

    const partial = join(dir, 'partial.json');
    writeFileSync(partial, JSON.stringify({ accountSid: 'AC0123' }));
    const refused = await cli(['carrier:configure', '--workspace', ws.workspaceId, '--carrier', 'vapi', '--adapter', 'vapi', '--credentials-file', partial]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('invalid_request');
    expect(refused.stderr).not.toContain('AC0123');

    const number = JSON.parse((await cli(['number:add', '--workspace', ws.workspaceId, '--e164', '+14155550103', '--carrier', 'twilio'])).stdout);
    const sync = await cli(['number:sync', '--workspace', ws.workspaceId, '--number', number.id]);
    expect(sync.code).toBe(1); // Twilio dials any number the account owns: nothing to import
    expect(sync.stderr).toContain('invalid_request');
  }, 60_000);
});
