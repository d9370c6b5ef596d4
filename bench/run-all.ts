/*
 * `npm run bench`: runs every benchmark, one after the other, passing their output through, then
 * prints one table of ratios against the minimal raw baselines (bench/bench-table.ts), built from
 * the `BENCH_JSON {...}` lines the benchmarks print.
 *
 *   npm run bench                         # full sizes (tens of minutes)
 *   BENCH_SMOKE=1 npm run bench           # small sizes, short phases: does everything still run?
 *   BENCH_ONLY=results,scale npm run bench
 *
 * A benchmark missing from package.json, crashing, or printing no BENCH_JSON shows as "no data".
 * The exit code is 1 when a benchmark crashed; a missed goal is reported in the table, not as a
 * failure (goals are for a quiet machine).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchJson } from './bench-load';
import { buildTable, EXPECTED, parseBenchJson, renderTable } from './bench-table';

const ROOT = join(__dirname, '..', '..');
const SMOKE = process.env.BENCH_SMOKE === '1';

/** Smoke sizes, unless the shell set them. */
const SMOKE_ENV: Record<string, string> = {
  BENCH_SECONDS: '2',
  BENCH_ROUNDS: '1',
  BENCH_CONTACTS: '500',
  BENCH_LATENCY_CONTACTS: '100',
  BENCH_ROWS: '5000',
  BENCH_LEADS: '10',
  BENCH_GAP_MS: '20',
  BENCH_SCALE_CONTACTS: '300',
};

/**
 * The command a script runs once the code is compiled: the part after the last `&&` when it is a
 * `node …` command (`npm run bench` compiled everything once already), else the whole npm script.
 */
function command(script: string, scripts: Record<string, string>): string {
  const last = scripts[script].split('&&').pop()!.trim();
  return last.startsWith('node ') ? last : `npm run -s ${script}`;
}

function run(cmd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, { cwd: ROOT, env, shell: true, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      process.stdout.write(d);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

async function main(): Promise<void> {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((s) => `bench:${s.trim().replace(/^bench:/, '')}`)) : null;
  const env = { ...process.env, ...(SMOKE ? Object.fromEntries(Object.entries(SMOKE_ENV).filter(([k]) => process.env[k] === undefined)) : {}) };
  const rows: BenchJson[] = [];
  const failed: Record<string, string> = {};
  const started = Date.now();
  for (const { bench } of EXPECTED) {
    if (only && !only.has(bench)) {
      failed[bench] = 'not run: BENCH_ONLY';
      continue;
    }
    if (!scripts[bench]) {
      failed[bench] = 'not in package.json';
      continue;
    }
    const cmd = command(bench, scripts);
    process.stdout.write(`\n==== ${bench}${SMOKE ? ' (smoke)' : ''}: ${cmd}\n`);
    const { code, stdout } = await run(cmd, env);
    const parsed = parseBenchJson(stdout);
    rows.push(...parsed.rows);
    for (const text of parsed.malformed) process.stdout.write(`${bench}: malformed BENCH_JSON ignored: ${text}\n`);
    if (code !== 0) failed[bench] = `exited with ${code}`;
    else if (!parsed.rows.length) failed[bench] = 'printed no BENCH_JSON';
  }
  const crashed = Object.entries(failed).filter(([, why]) => why.startsWith('exited'));
  process.stdout.write(
    `\n==== npm run bench${SMOKE ? ' (BENCH_SMOKE=1: small sizes, short phases — not a measurement)' : ''}, ` +
      `${Math.round((Date.now() - started) / 1000)} s, node ${process.version}, ${new Date().toISOString()}\n` +
      `ratio = service / minimal raw baseline, measured in the same run; goals hold on a quiet machine (docs/performance.md)\n\n`,
  );
  process.stdout.write(`${renderTable(buildTable(rows, EXPECTED, failed))}\n`);
  if (crashed.length) {
    process.stdout.write(`\ncrashed: ${crashed.map(([b, why]) => `${b} (${why})`).join(', ')}\n`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
