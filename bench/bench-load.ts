// Helpers for the HTTP benchmarks (results, scale): child processes for the servers under test and
// an autocannon load run. The load generator stays in the bench process; every server runs in a
// process of its own, so none shares an event loop with the load it answers.
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..'); // dist/bench → the project root

/** BENCH_SMOKE=1: seconds, not minutes (a check that every bench still runs, not a measurement). */
export const SMOKE = process.env.BENCH_SMOKE === '1';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, errors and timeouts. */
  bad: number;
}

type AutocannonRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- autocannon ships no types
const autocannon = require('autocannon') as (options: Record<string, unknown>) => Promise<AutocannonResult>;

/** One autocannon run: `connections` connections for `seconds`, GET `path` or POST a body made per request. */
export async function load(options: {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  method: 'GET' | 'POST';
  path: string;
  body?: () => unknown;
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    headers: { 'content-type': 'application/json', ...options.headers },
    requests: [
      options.body
        ? { method: options.method, path: options.path, setupRequest: (req: AutocannonRequest) => ({ ...req, body: JSON.stringify(options.body!()) }) }
        : { method: options.method, path: options.path },
    ],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad: result.non2xx + result.errors + result.timeouts };
}

/** Median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Spawns `node <script> ...args` from the project root; resolves once stdout printed a line matching `ready` (its match). */
export function spawnReady(script: string, args: string[], env: Record<string, string>, ready: RegExp, timeoutMs = 60_000): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, [join(ROOT, script), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start in time: ${stderr}`)), timeoutMs);
    const onData = (d: Buffer) => {
      stdout += d.toString();
      const match = ready.exec(stdout);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve({ child, match });
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited early (${code}): ${stderr}`));
    });
  });
}

/** SIGTERM, then waits for the exit (SIGKILL after 10 s). */
export function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A baseline server in its own process (serve.js raw | same-sql). */
export async function spawnBaseline(kind: 'raw' | 'same-sql' | 'nest', env: Record<string, string>): Promise<{ child: ChildProcess; url: string; resultId?: string; campaignId?: string }> {
  const { child, match } = await spawnReady('dist/bench/baselines/serve.js', [kind], env, /READY (\{.*\})\n/);
  return { child, ...(JSON.parse(match[1]) as { url: string; resultId?: string; campaignId?: string }) };
}

/** `processes` API processes sharing one port under Node cluster (1 = the same launcher, for a like-for-like ratio). */
export async function spawnApi(processes: number, port: number, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const listening = new RegExp(`(API listening[^\\n]*\\n[\\s\\S]*){${processes}}`);
  const { child } = await spawnReady('dist/bench/baselines/cluster.js', [String(processes), 'dist/apps/api/src/main.js'], { ...env, PORT: String(port), HOST: '127.0.0.1' }, listening, 90_000);
  return { child, url: `http://127.0.0.1:${port}` };
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** One machine-readable row for `npm run bench` (format: docs/performance.md "Method"). */
export interface BenchJson {
  bench: string;
  path: string;
  unit: string;
  service: number | null;
  raw: number | null;
  rawName: string;
  ratio: number | null;
  goal: number | null;
  p99ms: number | null;
  /** Optional: the same-SQL baseline's figure (the second column). */
  sameSql?: number | null;
  /** Optional: the Nest minimum's figure (the raw baseline's work served by Nest + Express: the framework's ceiling). */
  nestMinimum?: number | null;
  /** Optional: the goal on p99 (ms), where the issue sets one. */
  p99GoalMs?: number | null;
}

/** The BENCH_JSON line of a row (`extra`: figures a benchmark adds beside the common fields, e.g. rows or peak RSS). */
export function benchJsonLine(row: BenchJson, extra: Record<string, unknown> = {}): string {
  return `BENCH_JSON ${JSON.stringify({ ...row, ...extra })}`;
}

/**
 * A row measured as `service` beside `raw` in the same run: figures rounded to 3 decimals and the
 * ratio computed here, so every benchmark states it the same way.
 */
export function measuredRow(row: Omit<BenchJson, 'ratio' | 'service' | 'raw'> & { service: number; raw: number }): BenchJson {
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { ...row, service: round(row.service), raw: round(row.raw), ratio: round(row.service / row.raw), goal: row.goal === null ? null : round(row.goal) };
}

export function printBenchJson(row: BenchJson): void {
  process.stdout.write(`${benchJsonLine(row)}\n`);
}
