import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * A real worker process (node dist/apps/worker/src/main.js, built once per jest run by
 * global-setup.js) with this jest worker's environment plus `env`; resolves once it logged
 * "Worker started". Its stderr is kept for the error message when it dies early.
 */
export function spawnWorker(env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/apps/worker/src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, OUTBOX_POLL_MS: '50', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start in time: ${stderr}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('Worker started')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited early (${code}): ${stderr}`));
    });
  });
}

/** Sends `signal` and waits for the process to exit (at once when it already has). */
export function killProcess(child: ChildProcess | null, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
