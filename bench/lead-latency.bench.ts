/*
 * Lead-to-dial latency: how long after an API lead push is accepted its first call is placed,
 * with the service's default timings (OUTBOX_POLL_MS 200, DISPATCH_TICK_MS 2000) and the
 * zero-latency sandbox. Two runs in the same process, printed side by side:
 *   - "poll only": the outbox relay finds new rows by polling (the listener is switched off), the
 *     baseline, and
 *   - "LISTEN/NOTIFY": the relay is woken by the NOTIFY that the push's commit sends.
 *
 *   npm run bench:latency                      # 100 leads per run, 100 ms apart
 *   npm run bench:latency -- --leads 300 --gap-ms 50
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_bench), created
 * and migrated when missing; Redis as REDIS_URL under its own prefix (BENCH_REDIS_PREFIX, default
 * outreach_bench_latency), emptied before and after. Not part of `npm test`.
 */
import 'reflect-metadata';
import { INestApplicationContext, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AgentsCoreModule } from '@outreach/agents';
import { BillingModule, CreditWallet } from '@outreach/billing';
import { CampaignLifecycle, CampaignsCoreModule } from '@outreach/campaigns';
import { EngineWorkerModule } from '@outreach/engine';
import { loadConfig, OutboxListener, PlatformModule, runMigrations } from '@outreach/platform';
import { PushLead, ResultsCoreModule } from '@outreach/results';
import { TelephonyCoreModule } from '@outreach/telephony';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { DataSource } from 'typeorm';
import { printBenchJson, SMOKE } from './bench-load';
import { argument, benchCampaign, emptyRedisPrefix, serviceMigrations } from './bench-support';


const LEADS = argument('leads', process.env.BENCH_LEADS ?? (SMOKE ? '10' : '100'));
const GAP_MS = argument('gap-ms', process.env.BENCH_GAP_MS ?? (SMOKE ? '20' : '100'));
process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench';
process.env.REDIS_PREFIX = process.env.BENCH_REDIS_PREFIX ?? 'outreach_bench_latency';
process.env.LOG_LEVEL = 'silent';
process.env.SANDBOX_VOICE_LATENCY_MS = '0';
// The service's defaults, whatever the shell says: the point is the latency a deployment gets.
delete process.env.OUTBOX_POLL_MS;
delete process.env.DISPATCH_TICK_MS;

/** What the worker process runs (relay, dispatch, attempts) plus what seeding and pushing need. */
@Module({
  imports: [
    PlatformModule.forRoot({ role: 'worker', migrations: serviceMigrations() }),
    EngineWorkerModule,
    ResultsCoreModule,
    WorkspacesCoreModule,
    AgentsCoreModule,
    BillingModule,
    TelephonyCoreModule,
    CampaignsCoreModule,
  ],
})
class LatencyBenchModule {}

/** Stands in for the listener in the baseline run: never connects, so the relay only polls. */
class NoListener {
  readonly listening = false;
  onApplicationBootstrap(): void {}
  async onApplicationShutdown(): Promise<void> {}
}

async function boot(listen: boolean): Promise<INestApplicationContext> {
  let builder = Test.createTestingModule({ imports: [LatencyBenchModule] });
  if (!listen) builder = builder.overrideProvider(OutboxListener).useClass(NoListener);
  const moduleRef = await builder.compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  return moduleRef;
}

interface LatencyResult {
  leads: number;
  p50: number;
  p90: number;
  max: number;
  mean: number;
}

async function run(app: INestApplicationContext, label: string): Promise<LatencyResult> {
  const dataSource = app.get(DataSource);
  const { workspaceId, campaignId } = await benchCampaign(app, `latency ${label}`, { source: 'API', lines: 10 });
  await app.get(CreditWallet).execute({ workspaceId: workspaceId, amountMinor: 1_000_000_000 });
  await app.get(CampaignLifecycle).start(workspaceId, campaignId, {});
  await new Promise((r) => setTimeout(r, 3000)); // the start's own dispatch run is over

  const accepted = new Map<string, number>(); // lead id → when its push was answered
  for (let i = 0; i < LEADS; i++) {
    const outcome = await app.get(PushLead).push(workspaceId, campaignId, {
      idempotencyKey: `latency-${i}`,
      // +1 650 <exchange> <line>; the last digit 5 makes the sandbox answer and complete.
      phone: `+1650${200 + Math.floor(i / 1000)}${String((i % 1000) * 10 + 5).padStart(4, '0')}`,
    });
    accepted.set(outcome.body.id, Date.now());
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
  const deadline = Date.now() + 60_000;
  let dialled: Array<{ contact_id: string; started_at: Date }> = [];
  while (Date.now() < deadline) {
    dialled = await dataSource.query(`SELECT contact_id, min(started_at) AS started_at FROM calls WHERE campaign_id = $1 GROUP BY contact_id`, [
      campaignId,
    ]);
    if (dialled.length >= accepted.size) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (dialled.length < accepted.size) throw new Error(`${label}: only ${dialled.length} of ${accepted.size} leads dialled within 60 s`);
  const latencies = dialled.map((d) => new Date(d.started_at).getTime() - accepted.get(d.contact_id)!).sort((a, b) => a - b);
  await dataSource.query(`DELETE FROM calls WHERE campaign_id = $1`, [campaignId]);
  await dataSource.query(`DELETE FROM campaigns WHERE id = $1`, [campaignId]);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { leads: latencies.length, p50: at(0.5), p90: at(0.9), max: latencies[latencies.length - 1], mean: latencies.reduce((s, n) => s + n, 0) / latencies.length };
}

async function main(): Promise<void> {
  const config = loadConfig();
  await runMigrations(config, serviceMigrations());
  const results: Array<[string, LatencyResult]> = [];
  for (const [label, listen] of [
    ['poll only', false],
    ['LISTEN/NOTIFY', true],
  ] as const) {
    await emptyRedisPrefix(config);
    process.stderr.write(`${label}: ${LEADS} leads, ${GAP_MS} ms apart…\n`);
    const app = await boot(listen);
    results.push([label, await run(app, label)]);
    await app.close();
  }
  await emptyRedisPrefix(config);

  const pad = (s: string | number, n: number) => String(s).padStart(n);
  console.log(`\nlead → first dial, ms (OUTBOX_POLL_MS ${config.outboxPollMs}, DISPATCH_TICK_MS ${config.dispatchTickMs}, zero-latency sandbox, node ${process.version})\n`);
  console.log(`${'run'.padEnd(16)}${pad('leads', 7)}${pad('p50', 8)}${pad('p90', 8)}${pad('max', 8)}${pad('mean', 8)}`);
  for (const [label, r] of results) {
    console.log(`${label.padEnd(16)}${pad(r.leads, 7)}${pad(r.p50, 8)}${pad(r.p90, 8)}${pad(r.max, 8)}${pad(Math.round(r.mean), 8)}`);
  }
  const [[, poll], [, listen]] = results;
  console.log(`\nLISTEN/NOTIFY / poll only: p50 ${(listen.p50 / Math.max(poll.p50, 1)).toFixed(2)}, mean ${(listen.mean / Math.max(poll.mean, 1)).toFixed(2)}`);
  // Lower is better here: the ratio is the p50 latency's, LISTEN/NOTIFY over polling.
  printBenchJson({
    bench: 'bench:latency',
    path: 'lead → first dial, p50 ms (lower is better)',
    unit: 'ms',
    service: listen.p50,
    raw: poll.p50,
    rawName: 'relay polling only',
    ratio: listen.p50 / Math.max(poll.p50, 1),
    goal: null,
    p99ms: null,
  });
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
