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
});
