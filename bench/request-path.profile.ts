/*
 * Profile of the per-request path (issue 19 item 2, decisions.md 41.4): the real API in this
 * process, the load (autocannon, 50 connections) in a child process so its work stays out of the
 * profile, and the V8 CPU profiler (node:inspector, the same profile `node --cpu-prof` writes)
 * running only while the load runs, so boot and seeding stay out of it too. Prints req/s and the
 * top frames by self time; the .cpuprofile opens in Chrome DevTools.
 *
 *   npm run -s build && swc bench -d dist --config-file .swcrc -q
 *   node dist/bench/request-path.profile.js --seconds 10 --path result|push [--out /tmp/x.cpuprofile]
 *   node dist/bench/request-path.profile.js --top /tmp/x.cpuprofile
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_bench_profile).
 * Not a benchmark (no baseline): bench:results and bench:latency are.
 */
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { AddressInfo } from 'node:net';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ProvisionAgent } from '@outreach/agents';
import { CreditWallet } from '@outreach/billing';
import { configureApiApp } from '@outreach/platform';
import { RecordLeadResult } from '@outreach/results';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { ApiKeyAdministration, WorkspaceAdministration } from '@outreach/workspaces';
import { DataSource } from 'typeorm';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

type Autocannon = (options: Record<string, unknown>) => Promise<{ requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number }>;

/** Child: the load, then one JSON line on stdout. */
async function loadChild(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- autocannon ships no types
  const autocannon = require('autocannon') as Autocannon;
  const [url, key, mode, target, seconds] = process.argv.slice(3);
  let n = Math.floor(Math.random() * 7_000_000);
  const phone = () => {
    const i = n++;
    return `+1415${200 + (Math.floor(i / 10000) % 800)}${String(i % 10000).padStart(4, '0')}`;
  };
  const result = await autocannon({
    url,
    connections: 50,
    duration: Number(seconds),
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    requests: [
      mode === 'push'
        ? {
            method: 'POST',
            path: `/v1/campaigns/${target}/leads`,
            setupRequest: (req: object) => ({ ...req, body: JSON.stringify({ idempotencyKey: `p-${Date.now()}-${n}`, phone: phone(), name: 'Bench', fields: { plan: 'pro', seats: 3 } }) }),
          }
        : { method: 'GET', path: `/v1/results/${target}` },
    ],
  });
  process.stdout.write(`${JSON.stringify({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad: result.non2xx + result.errors })}\n`);
}

async function seed(app: INestApplication, base: string) {
  const { workspace } = await app.get(WorkspaceAdministration).create({ name: `profile-${Date.now()}`, features: ['api_results'] });
  const issued = await app.get(ApiKeyAdministration).create({ workspaceId: workspace.id, name: 'profile', scopes: ['campaigns.view', 'campaigns.edit', 'agents.edit', 'agents.view'] });
  const headers = { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const agent = await post('/agents', { name: `Profile agent ${Date.now()}`, prompt: 'You are calling about an enquiry.', voice: 'aria' });
  await app.get(ProvisionAgent).execute(agent.id as string);
  await app.get(CreditWallet).execute({ workspaceId: workspace.id, amountMinor: 1_000_000_000 });
  const campaign = await post('/v1/campaigns', { name: `Profile ${Date.now()}`, channel: 'VOICE', source: 'API', agentId: agent.id });
  const number = await app.get(PhoneNumberAdministration).add({ workspaceId: workspace.id, e164: `+1212${200 + Math.floor(Math.random() * 800)}${String(Math.floor(Math.random() * 10000)).padStart(4, '0')}` });
  await post(`/campaigns/${campaign.id}/phone-numbers`, { phoneNumberId: number.id });
  await post(`/campaigns/${campaign.id}/start`, {});
  const lead = await post(`/v1/campaigns/${campaign.id}/leads`, { idempotencyKey: 'seed', phone: '+16465550100', name: 'Seed', fields: { plan: 'pro' } });
  await app.get(DataSource).query(`UPDATE campaign_contacts SET status = 'COMPLETED', attempts = 1, last_outcome = 'completed' WHERE id = $1`, [lead.id]);
  const resultId = await app.get(RecordLeadResult).execute(lead.id as string);
  return { key: issued.key, campaignId: campaign.id as string, resultId: resultId! };
}

async function profile(): Promise<void> {
  process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench_profile';
  process.env.REDIS_PREFIX = process.env.REDIS_PREFIX ?? 'outreach_bench_profile';
  process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'silent';
  process.env.RATE_LIMIT_PER_MINUTE = '10000000';
  const seconds = argument('seconds', '10');
  const path = argument('path', 'result');
  const app = await NestFactory.create((await import('../apps/api/src/api.module')).ApiModule, { bodyParser: false, logger: false });
  configureApiApp(app);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  try {
    const s = await seed(app, base);
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    const child = fork(__filename, ['load', base, s.key, path, path === 'push' ? s.campaignId : s.resultId, seconds], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      execArgv: [],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((resolve) => child.on('exit', resolve));
    const { profile: cpu } = await session.post('Profiler.stop');
    session.disconnect();
    const file = argument('out', `/tmp/request-path-${path}-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(cpu));
    console.log(`${path}: ${out.trim()}  (profile: ${file})`);
    top(file, Number(argument('count', '25')));
  } finally {
    await app.close();
  }
}

/** Self time of a .cpuprofile's busy samples (idle and GC apart): the top functions, then per package. */
function top(file: string, count = 25): void {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const packages = new Map<string, number>();
  let total = 0;
  let idle = 0;
  const add = (map: Map<string, number>, key: string, dt: number) => map.set(key, (map.get(key) ?? 0) + dt);
  prof.samples.forEach((id, i) => {
    const dt = prof.timeDeltas[i] ?? 0;
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)') {
      idle += dt;
      return;
    }
    total += dt;
    const url = f.url;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? /\/dist\/((?:libs|apps)\/[^/]+)/.exec(url)?.[1] ?? (url.startsWith('node:') ? 'node internals' : url ? url : `(native) ${f.functionName}`);
    add(packages, pkg, dt);
    add(self, `${f.functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/')}:${f.lineNumber + 1}`, dt);
  });
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  console.log(`busy ${(total / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s; shares of busy time`);
  console.log('-- top functions (self time)');
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`${pct(us)}  ${name}`);
  console.log('-- per package (self time)');
  for (const [name, us] of [...packages].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`${pct(us)}  ${name}`);
}

if (process.argv[2] === 'load') void loadChild();
else if (process.argv.includes('--top')) top(argument('top', ''), Number(argument('count', '25')));
else
  profile().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
