/*
 * Scale-out benchmark (issue 19, item 6): the same work on 1 and then 2 processes, the ratio of
 * their throughputs, on this machine.
 *   - dispatch: N worker processes (node dist/apps/worker/src/main.js, as deployed) run a campaign
 *     of BENCH_SCALE_CONTACTS contacts (default 20,000; BENCH_SCALE_LINES lines, default 500 as
 *     bench:engine: at 100 a contact's own cycle bounds both runs, decisions.md 16.45) through the zero-latency sandbox, from start
 *     to COMPLETED; double dials are counted at the sandbox provider (its call records in Redis:
 *     more than one accepted call to a number — must be 0; retries are off, one attempt each);
 *   - API: N API processes (node dist/apps/api/src/main.js under Node cluster, one shared port,
 *     round-robin) answering GET /v1/results/{id} at 50 connections (autocannon, in this process).
 * Goal: dispatch 2 workers / 1 worker ≥ 1.6 on a quiet 2-core machine.
 *
 *   npm run bench:scale
 *   npm run bench:scale -- --contacts 50000 --seconds 20
 *   BENCH_SMOKE=1 npm run bench:scale             # 300 contacts, 2 s phases
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_bench), created
 * and migrated when missing; Redis as REDIS_URL under BENCH_REDIS_PREFIX (default
 * outreach_bench_scale), emptied before each run and after. Not part of `npm test`.
 */
import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AgentsCoreModule } from '@outreach/agents';
import { BillingModule, CreditWallet } from '@outreach/billing';
import { CampaignLifecycle, CampaignsCoreModule } from '@outreach/campaigns';
import { AppConfig, loadConfig, PlatformModule, redisOptions, runMigrations } from '@outreach/platform';
import { TelephonyCoreModule } from '@outreach/telephony';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { seedApi } from './api-seed';
import { freePort, load, median, printBenchJson, SMOKE, spawnApi, spawnReady, stop } from './bench-load';
import { argument, benchCampaign, emptyRedisPrefix, serviceMigrations, vacuumBenchDatabase } from './bench-support';

const CONTACTS = argument('contacts', process.env.BENCH_SCALE_CONTACTS ?? (SMOKE ? '300' : '20000'));
const LINES = argument('lines', process.env.BENCH_SCALE_LINES ?? '500');
const SECONDS = argument('seconds', process.env.BENCH_SECONDS ?? (SMOKE ? '2' : '10'));
const ROUNDS = argument('rounds', process.env.BENCH_ROUNDS ?? (SMOKE ? '1' : '2'));
const CONNECTIONS = 50;
process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench';
process.env.REDIS_PREFIX = process.env.BENCH_REDIS_PREFIX ?? 'outreach_bench_scale';
process.env.LOG_LEVEL = 'silent';
process.env.RATE_LIMIT_PER_MINUTE = '10000000';
process.env.DB_CONNECT_TIMEOUT_MS = process.env.DB_CONNECT_TIMEOUT_MS ?? '5000';
// The seeding statements (20,000 contacts in one insert) outlast the service's default bound (700 ms) on a busy machine.
process.env.DB_QUERY_TIMEOUT_MS = process.env.DB_QUERY_TIMEOUT_MS ?? '600000';

/** The worker processes' settings: as bench:engine runs its in-process worker. */
const WORKER_ENV = {
  DATABASE_URL: process.env.DATABASE_URL,
  REDIS_PREFIX: process.env.REDIS_PREFIX,
  LOG_LEVEL: 'silent',
  SANDBOX_VOICE_LATENCY_MS: '0',
  OUTBOX_POLL_MS: process.env.OUTBOX_POLL_MS ?? '10',
  DISPATCH_TICK_MS: process.env.DISPATCH_TICK_MS ?? '200',
  ATTEMPT_CONCURRENCY: String(LINES),
  DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '20',
  DB_CONNECT_TIMEOUT_MS: '5000',
  DB_QUERY_TIMEOUT_MS: '600000',
};

/** Seeding only (no processors: the worker processes do the work). */
@Module({
  imports: [
    PlatformModule.forRoot({ role: 'cli', migrations: serviceMigrations() }),
    WorkspacesCoreModule,
    AgentsCoreModule,
    BillingModule,
    TelephonyCoreModule,
    CampaignsCoreModule,
  ],
})
class ScaleSeedModule {}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

interface DispatchRun {
  workers: number;
  seconds: number;
  perSecond: number;
  calls: number;
  /** Numbers the sandbox provider accepted more than one call to. */
  doubleDials: number;
  /** Calls the sandbox provider accepted for this campaign's numbers. */
  providerCalls: number;
}

/** The call records the sandbox provider kept under the prefix for calls from `callerIds`, by number called. */
async function providerCallsByNumber(config: AppConfig, callerIds: Set<string>): Promise<Map<string, number>> {
  const redis = new Redis(redisOptions(config));
  const byNumber = new Map<string, number>();
  let cursor = '0';
  try {
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.redisPrefix}:sandbox-voice:*`, 'COUNT', 1000);
      cursor = next;
      if (!keys.length) continue;
      for (const raw of await redis.mget(...keys)) {
        if (!raw) continue;
        const { from, to } = JSON.parse(raw) as { from: string; to: string };
        if (!callerIds.has(from)) continue; // another campaign's call (a shared bench database)
        byNumber.set(to, (byNumber.get(to) ?? 0) + 1);
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return byNumber;
}

async function dispatch(app: INestApplicationContext, config: AppConfig, workers: number): Promise<DispatchRun> {
  await emptyRedisPrefix(config);
  const dataSource = app.get(DataSource);
  const { workspaceId, campaignId } = await benchCampaign(app, `scale ${workers}w`, { source: 'CSV', lines: LINES });
  await dataSource.query(
    `WITH inserted AS (
       INSERT INTO campaign_contacts (campaign_id, workspace_id, phone)
       SELECT $1, $2, '+1650' || (200 + i / 10000)::text || lpad((i % 10000)::text, 4, '0') FROM generate_series(0, $3 - 1) AS i
       RETURNING 1)
     INSERT INTO campaign_contact_counts (campaign_id, shard, n) SELECT $1, 0, count(*) FROM inserted`,
    [campaignId, workspaceId, CONTACTS],
  );
  await app.get(CreditWallet).execute({ workspaceId, amountMinor: 1_000_000_000_000 });
  // Each run starts from the dead rows of none before it, as with autovacuum and as the other
  // engine benches do (decisions.md 47.9); the 2-worker run no longer inherits the 1-worker run's.
  await vacuumBenchDatabase(dataSource);
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < workers; i++) children.push((await spawnReady('dist/apps/worker/src/main.js', [], WORKER_ENV, /Worker started/, 90_000)).child);
    const started = process.hrtime.bigint();
    await app.get(CampaignLifecycle).start(workspaceId, campaignId, { reservedConcurrency: LINES });
    let lastReport = Date.now();
    for (;;) {
      const [{ status }]: Array<{ status: string }> = await dataSource.query(`SELECT status FROM campaigns WHERE id = $1`, [campaignId]);
      if (status === 'COMPLETED') break;
      if (status !== 'RUNNING') throw new Error(`campaign is ${status}`);
      if (Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        const [{ n }]: Array<{ n: number }> = await dataSource.query(`SELECT count(*)::int AS n FROM calls WHERE campaign_id = $1`, [campaignId]);
        process.stderr.write(`  ${workers} worker(s): ${fmt(n)} / ${fmt(CONTACTS)} dialled\n`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const [{ calls }]: Array<{ calls: number }> = await dataSource.query(`SELECT count(*)::int AS calls FROM calls WHERE campaign_id = $1`, [campaignId]);
    const callerIds: Array<{ e164: string }> = await dataSource.query(`SELECT e164 FROM phone_numbers WHERE workspace_id = $1`, [workspaceId]);
    const byNumber = await providerCallsByNumber(config, new Set(callerIds.map((r) => r.e164)));
    await dataSource.query(`DELETE FROM calls WHERE campaign_id = $1`, [campaignId]);
    await dataSource.query(`DELETE FROM campaigns WHERE id = $1`, [campaignId]);
    return {
      workers,
      seconds,
      perSecond: CONTACTS / seconds,
      calls,
      doubleDials: [...byNumber.values()].filter((n) => n > 1).length,
      providerCalls: [...byNumber.values()].reduce((s, n) => s + n, 0),
    };
  } finally {
    for (const child of children) await stop(child);
    await emptyRedisPrefix(config);
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  await runMigrations(config, serviceMigrations()); // creates the database when missing

  // ---- dispatch: 1 then 2 worker processes
  const app = await NestFactory.createApplicationContext(ScaleSeedModule, { logger: false, abortOnError: false });
  await app.init();
  const runs: DispatchRun[] = [];
  try {
    for (const workers of [1, 2]) {
      process.stderr.write(`dispatch: ${workers} worker process(es), ${fmt(CONTACTS)} contacts, ${LINES} lines…\n`);
      runs.push(await dispatch(app, config, workers));
    }
  } finally {
    await app.close();
  }

  // ---- API: 1 then 2 processes behind Node cluster, alternating
  const seeded = await seedApi();
  const apiEnv = { DATABASE_URL: process.env.DATABASE_URL!, REDIS_PREFIX: process.env.REDIS_PREFIX!, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '10000000', DB_POOL_SIZE: '10' };
  const api: Record<1 | 2, Array<{ rps: number; p99: number; bad: number }>> = { 1: [], 2: [] };
  // Each cluster is started once, warmed up (not counted), then measured in alternating rounds.
  const clusters: Partial<Record<1 | 2, { child: ChildProcess; url: string }>> = {};
  try {
    for (const n of [1, 2] as const) clusters[n] = await spawnApi(n, await freePort(), apiEnv);
    const get = (n: 1 | 2, seconds: number) =>
      load({ url: clusters[n]!.url, connections: CONNECTIONS, seconds, headers: { authorization: `Bearer ${seeded.key}` }, method: 'GET', path: `/v1/results/${seeded.resultId}` });
    for (const n of [1, 2] as const) await get(n, SMOKE ? 1 : 3);
    for (let round = 0; round < ROUNDS; round++) for (const n of [1, 2] as const) api[n].push(await get(n, SECONDS));
  } finally {
    for (const n of [2, 1] as const) await stop(clusters[n]?.child);
  }

  const [one, two] = runs;
  const apiMedian = (n: 1 | 2) => ({ rps: median(api[n].map((r) => r.rps)), p99: median(api[n].map((r) => r.p99)), bad: api[n].reduce((s, r) => s + r.bad, 0) });
  const a1 = apiMedian(1);
  const a2 = apiMedian(2);
  const row = (a: string, b: string, c: string, d: string) => `${a.padEnd(52)}${b.padStart(12)}${c.padStart(12)}${d.padStart(14)}`;
  const out = [
    `scale benchmark: node ${process.version}, ${cpus().length} CPUs (shared with everything else on this machine)`,
    '',
    row('dispatch, zero-latency sandbox', 'contacts', 'seconds', 'contacts/s'),
    ...runs.map((r) => row(`  ${r.workers} worker process(es), ${LINES} lines`, fmt(CONTACTS), r.seconds.toFixed(2), fmt(r.perSecond))),
    `  2 / 1: ${(two.perSecond / one.perSecond).toFixed(2)} (goal ≥ 1.6)`,
    `  double dials at the sandbox provider: ${one.doubleDials} (1 worker), ${two.doubleDials} (2 workers); ` +
      `calls accepted ${fmt(one.providerCalls)} / ${fmt(two.providerCalls)}, call rows ${fmt(one.calls)} / ${fmt(two.calls)}`,
    '',
    row(`GET /v1/results/{id}, ${CONNECTIONS} connections, ${SECONDS} s`, 'req/s', 'p99 ms', 'non-2xx/err'),
    row('  1 API process (cluster of 1)', fmt(a1.rps), a1.p99.toFixed(0), String(a1.bad)),
    row('  2 API processes (cluster of 2, round-robin)', fmt(a2.rps), a2.p99.toFixed(0), String(a2.bad)),
    `  2 / 1: ${(a2.rps / a1.rps).toFixed(2)} (rounds: ${api[1].map((r) => fmt(r.rps)).join(' / ')} vs ${api[2].map((r) => fmt(r.rps)).join(' / ')})`,
    '',
  ];
  process.stdout.write(out.join('\n'));
  printBenchJson({
    bench: 'bench:scale',
    path: 'dispatch: 2 worker processes / 1',
    unit: 'contacts/s',
    service: two.perSecond,
    raw: one.perSecond,
    rawName: '1 worker process',
    ratio: two.perSecond / one.perSecond,
    goal: 1.6,
    p99ms: null,
  });
  printBenchJson({
    bench: 'bench:scale',
    path: 'GET /v1/results/{id}: 2 API processes / 1',
    unit: 'req/s',
    service: a2.rps,
    raw: a1.rps,
    rawName: '1 API process',
    ratio: a2.rps / a1.rps,
    goal: null,
    p99ms: a2.p99,
  });
  const broken = runs.filter((r) => r.doubleDials > 0 || r.providerCalls !== CONTACTS || r.calls !== CONTACTS);
  if (broken.length) throw new Error(`guarantee broken: ${JSON.stringify(broken)}`);
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`scale benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
