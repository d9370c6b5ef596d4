/*
 * Operator CLI benchmark: how long one command takes end to end (process start to exit), as an
 * operator runs it (`outreach-operator <command>`, built), beside the minimal raw baseline of the
 * same work in the same run: a bare `node` process that opens one pg connection, runs the
 * command's SELECT and prints JSON. The ratio is what Nest, nest-commander and the module's code
 * cost; `node -e 0` is printed as the floor no Node program goes under.
 *
 *   npm run bench:cli                 # 7 runs per command, medians
 *   npm run bench:cli -- --runs 15
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_bench_cli),
 * created and migrated by the CLI's own `migrate`. Not part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { argument } from './bench-support';

const RUNS = argument('runs', '7');
const root = join(__dirname, '..', '..'); // dist/bench → the project
const env = {
  ...process.env,
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench_cli',
  REDIS_PREFIX: 'outreach_bench_cli',
  LOG_LEVEL: 'silent',
};

function run(args: string[]): { ms: number; stdout: string } {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`node ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  return { ms, stdout: child.stdout };
}

const operator = (...args: string[]) => run([join(root, 'bin', 'outreach-operator.js'), ...args]);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The raw baseline: one pg connection, the same SELECT, JSON on stdout. */
const rawKeyList = `
const { Client } = require('pg');
(async () => {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const { rows } = await client.query(
    'SELECT id, name, prefix, scopes, expires_at, revoked_at, last_used_at, created_at FROM api_keys WHERE workspace_id = $1 ORDER BY created_at',
    [process.argv[1]],
  );
  process.stdout.write(JSON.stringify({ keys: rows }, null, 2) + '\\n');
  await client.end();
})();
`;

function main(): void {
  operator('migrate');
  const { workspace } = JSON.parse(operator('workspace:create', '--name', `bench cli ${new Date().toISOString()}`).stdout) as { workspace: { id: string } };
  const ws = workspace.id;

  const cases: { name: string; args: () => string[] }[] = [
    { name: 'node -e 0 (floor)', args: () => ['-e', '0'] },
    { name: 'raw pg key list (baseline)', args: () => ['-e', rawKeyList, ws] },
    { name: 'key:list', args: () => [join(root, 'bin', 'outreach-operator.js'), 'key:list', '--workspace', ws] },
    { name: 'workspace:get', args: () => [join(root, 'bin', 'outreach-operator.js'), 'workspace:get', '--workspace', ws] },
    {
      name: 'wallet:credit',
      args: () => [join(root, 'bin', 'outreach-operator.js'), 'wallet:credit', '--workspace', ws, '--amount', '100', '--reference', `bench-${process.hrtime.bigint()}`],
    },
    { name: 'notification:list', args: () => [join(root, 'bin', 'outreach-operator.js'), 'notification:list', '--workspace', ws] },
  ];

  const timings = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  // Interleaved, so a burst of load on the shared machine falls on every case alike.
  for (let i = 0; i < RUNS; i++) for (const c of cases) timings.get(c.name)!.push(run(c.args()).ms);

  const baseline = median(timings.get('raw pg key list (baseline)')!);
  console.log(`operator CLI, ${RUNS} runs each, medians (load average ${loadavg()[0].toFixed(2)})`);
  console.log('case'.padEnd(30), 'median ms'.padStart(10), 'max ms'.padStart(8), '× baseline'.padStart(11));
  for (const c of cases) {
    const ms = timings.get(c.name)!;
    console.log(c.name.padEnd(30), median(ms).toFixed(0).padStart(10), Math.max(...ms).toFixed(0).padStart(8), (median(ms) / baseline).toFixed(2).padStart(11));
  }
  // For `npm run bench`'s table (run-all.ts). Lower is better here, as for bench:latency: the ratio
  // is the CLI's start-up over the raw pg client's.
  const keyList = median(timings.get('key:list')!);
  const row = { bench: 'bench:cli', path: 'operator CLI key:list, median ms (lower is better)', unit: 'ms', service: Math.round(keyList), raw: Math.round(baseline), rawName: 'node + pg key list', ratio: Number((keyList / baseline).toFixed(2)), goal: null, p99ms: null };
  console.log(`BENCH_JSON ${JSON.stringify(row)}`);
}

main();
