import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
/** The built operator CLI (dist/ is built once per jest run: test/support/global-setup.js). */
export const CLI_MAIN = join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs one operator CLI command in its own process, as an operator does, against this jest
 * worker's database (the environment is inherited; `env` adds to it, `keepLogLevel: false` drops
 * LOG_LEVEL so any log line on stdout would show). Killed after 20 s: a command exits promptly, or
 * the test fails on its exit code.
 */
export function runCli(args: string[], options: { env?: Record<string, string>; entry?: string; keepLogLevel?: boolean } = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  if (options.keepLogLevel === false) delete env.LOG_LEVEL;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.entry ?? CLI_MAIN, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
