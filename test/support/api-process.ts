import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ApiProcess {
  child: ChildProcess;
  baseUrl: string;
}

/**
 * A real API process (node dist/apps/api/src/main.js, built once per jest run by global-setup.js)
 * on a free port of 127.0.0.1, with this jest worker's environment plus `env`; resolves once it
 * printed "API listening". Stop it with killProcess (worker-process.ts).
 */
export async function spawnApi(env: Record<string, string> = {}): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'dist/apps/api/src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`API did not start in time: ${stderr}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('API listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`API exited early (${code}): ${stderr}`));
    });
  });
  return { child, baseUrl: `http://127.0.0.1:${port}` };
}
