import { WorkerModule } from '../../apps/worker/src/worker.module';
import { runCli } from '../support/cli-process';
import { waitFor } from '../support/tcp-proxy';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { numberEndingIn } from './messaging-helpers';

/* whatsapp:add-shared as an operator runs it: the built CLI in its own process; the worker verifies the sender. */
describe('operator CLI: whatsapp:add-shared', () => {
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;

  beforeAll(async () => {
    // dist/ is built once per jest run (test/support/global-setup.js).
    t = await TestApp.create();
    worker = await WorkerApp.create({ root: WorkerModule });
  }, 60_000);
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    ws = await t.seed({ features: ['whatsapp'] });
  });

  const senders = async () => (await t.http.get('/whatsapp/senders').set(bearer(ws.key))).body.senders as Array<Record<string, unknown>>;

  it('adds a platform-shared sender (SHARED, PLATFORM_SHARED, no credentials of its own) that the worker connects', async () => {
    const e164 = numberEndingIn(9);
    const added = await runCli(['whatsapp:add-shared', '--workspace', ws.workspaceId, '--e164', e164, '--display', 'Acme (shared)']);
    expect({ code: added.code, stderr: added.stderr }).toEqual({ code: 0, stderr: '' });
    const printed = JSON.parse(added.stdout);
    expect(printed).toEqual({
      id: expect.any(String),
      mode: 'SHARED',
      status: 'CONNECTING',
      numberSource: 'PLATFORM_SHARED',
      isDefault: true,
      phoneDisplay: 'Acme (shared)',
      hasCredentials: false,
      connectedAt: null,
      verifiedName: null,
      qualityRating: null,
    });
    await waitFor('the shared sender to connect', async () => (await senders())[0]?.status === 'CONNECTED', 20_000);
    expect((await senders())[0]).toMatchObject({ id: printed.id, mode: 'SHARED', numberSource: 'PLATFORM_SHARED', verifiedName: `Sandbox ${e164.slice(-4)}` });
  }, 60_000);

  it('refuses bad input with one line on stderr and changes nothing', async () => {
    const e164 = numberEndingIn(9);
    for (const args of [
      ['whatsapp:add-shared', '--workspace', ws.workspaceId, '--e164', '4155550101'],
      ['whatsapp:add-shared', '--workspace', 'not-a-uuid', '--e164', e164],
      ['whatsapp:add-shared', '--workspace', '0b0b0b0b-0000-4000-8000-000000000000', '--e164', e164],
      ['whatsapp:add-shared', '--workspace', ws.workspaceId],
      ['whatsapp:add-shared', '--workspace', ws.workspaceId, '--e164', e164, '--display', ''],
    ]) {
      const result = await runCli(args);
      expect({ args, code: result.code === 0 ? 0 : 'failed', stdout: result.stdout, lines: result.stderr.trim().split('\n').length }).toEqual({
        args,
        code: 'failed',
        stdout: '',
        lines: 1,
      });
    }
    expect(await senders()).toEqual([]);
  }, 60_000);
});
