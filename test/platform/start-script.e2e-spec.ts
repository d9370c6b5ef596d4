import { ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../support/api-process';
import { killProcess } from '../support/worker-process';

/*
 * The newcomer's path: `npm start` (scripts/start.js, over dist/ built by jest's global setup)
 * starts the API and the worker, and its ready line prints the README's "A first request"
 * commands with the real port. Those commands are then run as printed, and answer 200.
 */

const ROOT = join(__dirname, '..', '..');
const SLOW = 120_000;

/** The shell lines of the README's "A first request" block. */
function readmeFirstRequest(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = /## A first request\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
  const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.trim().split('\n');
}

describe('npm start (scripts/start.js)', () => {
  let start: ChildProcess | null = null;
  afterEach(() => killProcess(start, 'SIGTERM'));

  it(
    'prints the README\'s first-request commands with the real port once API and worker run; they work as printed',
    async () => {
      const port = await freePort();
      start = spawn(process.execPath, [join(ROOT, 'scripts', 'start.js')], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      start.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      const ready = new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ready line within 60 s:\n${output}`)), 60_000);
        start!.stdout!.on('data', (d: Buffer) => {
          output += d.toString();
          // The ready line, then the commands (written together, one chunk or more).
          if (/\[start\] ready: [\s\S]*curl [^\n]*\n/.test(output)) {
            clearTimeout(timer);
            resolve(output);
          }
        });
        start!.once('exit', (code) => reject(new Error(`npm start exited early (${code}):\n${output}`)));
      });
      const printed = (await ready).slice(output.indexOf('[start] ready: '));

      expect(printed).toContain(`[start] ready: API http://127.0.0.1:${port}, OpenAPI docs http://127.0.0.1:${port}/docs; worker running`);
      const readme = readmeFirstRequest();
      expect(readme).toHaveLength(3);
      const commands = readme.map((line) => line.replace('http://localhost:3000', `http://127.0.0.1:${port}`));
      for (const line of commands) expect(printed).toContain(`\n  ${line}\n`);

      // Run them as a newcomer would paste them (same database as the started processes).
      const answer = await new Promise<string>((resolve, reject) =>
        execFile('bash', ['-euo', 'pipefail', '-c', commands.join('\n')], { cwd: ROOT, env: process.env, timeout: 90_000 }, (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
        ),
      );
      expect(JSON.parse(answer)).toMatchObject({ name: 'Acme', status: 'ACTIVE', scopes: expect.arrayContaining(['campaigns.edit']) });
    },
    SLOW,
  );
});
