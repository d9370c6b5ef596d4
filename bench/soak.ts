/*
 * Soak: mixed traffic against the BUILT API (a child process: dist/apps/api/src/main.js) at a
 * steady rate, RSS of the API process and p99 latency sampled every 10 s, printed at the end
 * with the RSS slope (MB/min) and the error count (non-2xx, socket errors and timeouts: must be 0).
 *
 *   npm run soak                                   # 300 s at half the measured maximum
 *   SOAK_SECONDS=30 npm run soak                   # a short check
 *   SOAK_RATE=200 SOAK_SECONDS=600 npm run soak    # a fixed rate (requests/s)
 *
 * Traffic, round-robin per connection: GET /v1/campaigns/{id}, POST /v1/campaigns/{id}/leads
 * (a new idempotency key and phone each time), GET /v1/campaigns, GET /v1/results/{id},
 * GET /agents, GET /v1/campaigns/{id}/leads/{leadId}.
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_soak), created
 * and migrated when missing; Redis: BENCH_REDIS_URL (default redis://127.0.0.1:6379). Every target
 * must be on 127.0.0.1 / localhost. Not part of `npm test`. Exit code 1 when any request failed.
 */
import 'reflect-metadata';
import { serviceMigrations } from './bench-support';
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { ProvisionAgent } from '@outreach/agents';
import { CreditWallet } from '@outreach/billing';
import { ALL_SCOPES, configureApiApp, loadConfig, runMigrations } from '@outreach/platform';
import { RecordLeadResult } from '@outreach/results';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { ApiKeyAdministration, WorkspaceAdministration } from '@outreach/workspaces';
import { DataSource } from 'typeorm';
import { ApiModule } from '../apps/api/src/api.module';

const SECONDS = Number(process.env.SOAK_SECONDS ?? '300');
const SAMPLE_SECONDS = 10;
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? '10');
const FIXED_RATE = process.env.SOAK_RATE ? Number(process.env.SOAK_RATE) : null;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_soak';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
// Compiled to dist/bench/soak.js: the repository root is two levels up.
const ROOT = resolve(__dirname, '../..');
if (!Number.isInteger(SECONDS) || SECONDS < SAMPLE_SECONDS) throw new Error(`SOAK_SECONDS must be a whole number >= ${SAMPLE_SECONDS}`);
if (FIXED_RATE !== null && !(FIXED_RATE > 0)) throw new Error('SOAK_RATE must be a positive number of requests per second');

const LOCAL = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
for (const [name, url] of [['BENCH_DATABASE_URL', DATABASE_URL], ['BENCH_REDIS_URL', REDIS_URL]]) {
  if (!LOCAL.has(new URL(url).hostname)) throw new Error(`${name} must point at 127.0.0.1 (got ${new URL(url).hostname})`);
}

process.env.DATABASE_URL = DATABASE_URL;
process.env.REDIS_URL = REDIS_URL;
process.env.REDIS_PREFIX = 'outreach_soak';
process.env.LOG_LEVEL = 'silent';
process.env.RATE_LIMIT_PER_MINUTE = '10000000';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}
type AutocannonRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- autocannon ships no types
const autocannon = require('autocannon') as Autocannon;

let phoneCounter = Math.floor(Math.random() * 7_000_000);
function nextPhone(area: number): string {
  const n = phoneCounter++;
  return `+1${area}${200 + (Math.floor(n / 10000) % 800)}${String(n % 10000).padStart(4, '0')}`;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

interface Fixture {
  key: string;
  campaignId: string;
  leadId: string;
  resultId: string;
}

/** A workspace with a key, a RUNNING API campaign and one result, through an in-process API. */
async function seed(): Promise<Fixture> {
  const app = await NestFactory.create(ApiModule, { logger: false, bodyParser: false });
  configureApiApp(app);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  try {
    const { workspace } = await app.get(WorkspaceAdministration).create({ name: `soak-${Date.now()}`, features: ['api_results'] });
    const { key } = await app.get(ApiKeyAdministration).create({ workspaceId: workspace.id, name: 'soak', scopes: [...ALL_SCOPES] });
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = (await res.json()) as Record<string, string>;
      if (!res.ok) throw new Error(`seed ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const agent = await post('/agents', { name: `Soak agent ${Date.now()}`, prompt: 'You are calling about an enquiry.', voice: 'aria' });
    await app.get(ProvisionAgent).execute(agent.id);
    await app.get(CreditWallet).execute({ workspaceId: workspace.id, amountMinor: 1_000_000_000 });
    const campaign = await post('/v1/campaigns', { name: `Soak ${Date.now()}`, channel: 'VOICE', source: 'API', agentId: agent.id });
    const number = await app.get(PhoneNumberAdministration).add({ workspaceId: workspace.id, e164: nextPhone(212) });
    await post(`/campaigns/${campaign.id}/phone-numbers`, { phoneNumberId: number.id });
    await post(`/campaigns/${campaign.id}/start`, {});
    const lead = await post(`/v1/campaigns/${campaign.id}/leads`, { idempotencyKey: 'seed', phone: nextPhone(646), name: 'Seed' });
    await app.get(DataSource).query(`UPDATE campaign_contacts SET status = 'COMPLETED', attempts = 1, last_outcome = 'completed' WHERE id = $1`, [lead.id]);
    const resultId = await app.get(RecordLeadResult).execute(lead.id);
    if (!resultId) throw new Error('seed: no result recorded');
    return { key, campaignId: campaign.id, leadId: lead.id, resultId };
  } finally {
    await app.close();
  }
}

async function startApi(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/apps/api/src/main.js'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', NODE_ENV: process.env.NODE_ENV ?? 'development' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 30_000;
  while (!output.includes('API listening on')) {
    if (child.exitCode !== null) throw new Error(`API exited ${child.exitCode}: ${output}`);
    if (Date.now() > deadline) throw new Error(`API did not start in 30 s: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  child.stdout!.removeAllListeners('data');
  child.stdout!.resume();
  return child;
}

/** Resident set size of a process, MB (Linux /proc; `ps` elsewhere). */
function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kb / 1024;
  } catch {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- fallback only
    const out = (require('node:child_process') as typeof import('node:child_process')).execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
    return Number(out.trim()) / 1024;
  }
}

/** Lead idempotency keys stay unique across every window of the run. */
let leadCounter = 0;

function traffic(f: Fixture): AutocannonRequest[] {
  const headers = { authorization: `Bearer ${f.key}`, 'content-type': 'application/json' };
  return [
    { method: 'GET', path: `/v1/campaigns/${f.campaignId}`, headers },
    {
      method: 'POST',
      path: `/v1/campaigns/${f.campaignId}/leads`,
      headers,
      setupRequest: (req: AutocannonRequest) => ({ ...req, body: JSON.stringify({ idempotencyKey: `soak-${process.pid}-${++leadCounter}`, phone: nextPhone(646), name: 'Soak' }) }),
    } as AutocannonRequest,
    { method: 'GET', path: '/v1/campaigns?limit=20', headers },
    { method: 'GET', path: `/v1/results/${f.resultId}`, headers },
    { method: 'GET', path: '/agents', headers },
    { method: 'GET', path: `/v1/campaigns/${f.campaignId}/leads/${f.leadId}`, headers },
  ];
}

async function run(url: string, f: Fixture, seconds: number, rate: number | null): Promise<AutocannonResult> {
  return autocannon({ url, connections: CONNECTIONS, duration: seconds, requests: traffic(f), ...(rate ? { overallRate: rate } : {}) });
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

async function main(): Promise<void> {
  await runMigrations(loadConfig(), serviceMigrations()); // creates the database when missing
  const fixture = await seed();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const api = await startApi(port);
  let failed = false;
  try {
    process.stdout.write(`soak: API pid ${api.pid} on ${url}, ${CONNECTIONS} connections, ${SECONDS} s\n`);
    let rate = FIXED_RATE;
    if (rate === null) {
      const max = await run(url, fixture, 5, null);
      const errors = max.non2xx + max.errors + max.timeouts;
      rate = Math.max(1, Math.floor(max.requests.average / 2));
      process.stdout.write(`calibration: max ${max.requests.average.toFixed(0)} req/s (p99 ${max.latency.p99} ms, ${errors} errors) → soak at ${rate} req/s\n`);
    }
    const samples: Array<{ t: number; rssMb: number; p99: number; reqPerSec: number; errors: number }> = [];
    const rss0 = rssMb(api.pid!);
    process.stdout.write(`t=0 s  rss ${rss0.toFixed(1)} MB\n`);
    let elapsed = 0;
    while (elapsed < SECONDS) {
      const window = Math.min(SAMPLE_SECONDS, SECONDS - elapsed);
      const r = await run(url, fixture, window, rate);
      elapsed += window;
      const sample = { t: elapsed, rssMb: rssMb(api.pid!), p99: r.latency.p99, reqPerSec: r.requests.total / window, errors: r.non2xx + r.errors + r.timeouts };
      samples.push(sample);
      if (sample.errors > 0) {
        const codes = Object.entries(r.statusCodeStats ?? {}).filter(([code]) => !code.startsWith('2'));
        process.stdout.write(`  failures: ${JSON.stringify(Object.fromEntries(codes.map(([c, v]) => [c, v.count])))}, socket errors ${r.errors}, timeouts ${r.timeouts}\n`);
      }
      process.stdout.write(`t=${sample.t} s  rss ${sample.rssMb.toFixed(1)} MB  p99 ${sample.p99} ms  ${sample.reqPerSec.toFixed(0)} req/s  errors ${sample.errors}\n`);
    }
    const rssSlope = slope(samples.map((s) => [s.t / 60, s.rssMb]));
    const errors = samples.reduce((s, x) => s + x.errors, 0);
    const total = samples.reduce((s, x) => s + x.reqPerSec * SAMPLE_SECONDS, 0);
    process.stdout.write('\nsamples (every 10 s):\n');
    process.stdout.write(`${['t (s)', 'RSS (MB)', 'p99 (ms)', 'req/s', 'errors'].join('\t')}\n`);
    for (const s of samples) process.stdout.write(`${s.t}\t${s.rssMb.toFixed(1)}\t${s.p99}\t${s.reqPerSec.toFixed(0)}\t${s.errors}\n`);
    process.stdout.write(
      `\nsummary: ${SECONDS} s at ${rate} req/s (~${Math.round(total)} requests), RSS ${rss0.toFixed(1)} → ${samples.at(-1)!.rssMb.toFixed(1)} MB, ` +
        `RSS slope ${rssSlope.toFixed(2)} MB/min, max p99 ${Math.max(...samples.map((s) => s.p99))} ms, errors ${errors}\n`,
    );
    failed = errors > 0;
  } finally {
    api.kill('SIGTERM');
    await once(api, 'exit');
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`soak failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
