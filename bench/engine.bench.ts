/*
 * Execution engine benchmark: a campaign of N contacts (default 100,000) run end to end by the
 * real worker side (outbox relay, dispatch, attempt processors) through the zero-latency sandbox —
 * claim → attempt → Call → outcome → ledger debit — timed from start to COMPLETED, printed beside:
 *   - raw BullMQ throughput: no-op jobs through one Worker on the same Redis in the same run, and
 *   - a second campaign with 200 ms provider latency, whose rate should approach
 *     concurrency ÷ latency (the lines are the limit, not the engine).
 *
 *   npm run bench:engine                                          # 100,000 contacts at 500 lines, then 20,000 at 100
 *   npm run bench:engine -- --contacts 20000 --latency-contacts 3000 --concurrency 500 --latency-concurrency 30 --few-lines 0
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_bench), created
 * and migrated when missing; Redis as REDIS_URL under its own prefix (BENCH_REDIS_PREFIX, default
 * outreach_bench_engine), emptied before and after. The bench deletes the campaigns it created.
 * Not part of `npm test`.
 */
import 'reflect-metadata';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AgentsCoreModule } from '@outreach/agents';
import { BillingModule, CreditWallet } from '@outreach/billing';
import { CallEventsModule } from '@outreach/calls';
import { CampaignLifecycle, CampaignsCoreModule } from '@outreach/campaigns';
import { EngineWorkerModule } from '@outreach/engine';
import { loadConfig, PlatformModule, runMigrations } from '@outreach/platform';
import { TelephonyCoreModule } from '@outreach/telephony';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { DataSource } from 'typeorm';
import { argument, benchJson, fewLinesArgument, profileStatements, benchCampaign, bullmqNoop, emptyRedisPrefix, serviceMigrations, vacuumBenchDatabase } from './bench-support';


const CONTACTS = argument('contacts', process.env.BENCH_CONTACTS ?? '100000');
const LATENCY_CONTACTS = argument('latency-contacts', process.env.BENCH_LATENCY_CONTACTS ?? '5000');
// Lines of the headline run. At zero latency a contact holds its line only for the engine's own
// cycle (claim → dial → settled, a few hundred ms), so with 100 lines that cycle, not the engine's
// capacity, is what is measured: the headline run has 500 lines, and a second, shorter run at 100
// lines prints the latency-bound figure beside it (as bench:messages does, decisions.md 47.12, 16.42).
const CONCURRENCY = argument('concurrency', process.env.BENCH_CONCURRENCY ?? '500');
const FEW_LINES = fewLinesArgument();
const FEW_LINES_CONTACTS = Math.min(CONTACTS, argument('few-lines-contacts', process.env.BENCH_FEW_LINES_CONTACTS ?? '20000'));
// Lines of the latency run: the expected rate, concurrency ÷ latency, stays below what this
// machine's engine can settle (see the zero-latency run), so the lines are what limits it.
const LATENCY_CONCURRENCY = argument('latency-concurrency', process.env.BENCH_LATENCY_CONCURRENCY ?? '30');
const LATENCY_MS = 200;
/** Issue 19, item 4: end to end through the zero-latency sandbox. */
const GOAL_PER_SECOND = 2000;
process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench';
process.env.REDIS_PREFIX = process.env.BENCH_REDIS_PREFIX ?? 'outreach_bench_engine';
process.env.LOG_LEVEL = 'silent';
process.env.DB_QUERY_TIMEOUT_MS = '600000';
process.env.DB_POOL_SIZE = process.env.DB_POOL_SIZE ?? '20';
// Waiting for a pooled connection counts against the connect timeout (500 ms by default, tuned
// for the API's fast 503); a saturated worker may wait longer than that.
process.env.DB_CONNECT_TIMEOUT_MS = process.env.DB_CONNECT_TIMEOUT_MS ?? '5000';
process.env.OUTBOX_POLL_MS = process.env.OUTBOX_POLL_MS ?? '10';
process.env.DISPATCH_TICK_MS = process.env.DISPATCH_TICK_MS ?? '200';
process.env.ATTEMPT_CONCURRENCY = String(Math.max(CONCURRENCY, LATENCY_CONCURRENCY));

/**
 * The worker side of the engine, as apps/worker wires it, plus what seeding needs. CallEventsModule
 * applies every call's progress events (ringing, answered) in the worker as it does in production;
 * without it the bench skipped that work (decisions.md 16.43).
 */
@Module({
  imports: [
    PlatformModule.forRoot({ role: 'worker', migrations: serviceMigrations(), configDefaults: { dbQueryTimeoutMs: 600_000 } }),
    EngineWorkerModule,
    CallEventsModule,
    WorkspacesCoreModule,
    AgentsCoreModule,
    BillingModule,
    TelephonyCoreModule,
    CampaignsCoreModule,
  ],
})
class EngineBenchModule {}

const profile = profileStatements();
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function boot(latencyMs: number): Promise<INestApplicationContext> {
  process.env.SANDBOX_VOICE_LATENCY_MS = String(latencyMs);
  const app = await NestFactory.createApplicationContext(EngineBenchModule, { logger: false, abortOnError: false });
  await app.init();
  return app;
}

interface RunResult {
  contacts: number;
  seconds: number;
  perSecond: number;
  calls: number;
  debits: number;
  ledgerMatches: boolean;
  byStatus: Record<string, number>;
  claimToDialMs: number;
  dialToSettledMs: number;
}

/** A workspace with `lines` lines, an ACTIVE agent, a number, credit, and a RUNNING campaign of N contacts; waits for COMPLETED. */
async function runCampaign(app: INestApplicationContext, contacts: number, lines: number, label: string): Promise<RunResult> {
  const dataSource = app.get(DataSource);
  const { workspaceId, campaignId } = await benchCampaign(app, label, { source: 'CSV', lines });
  // Contacts by SQL (the import has its own benchmark): +1 650 <exchange> <line>, every last digit alike.
  await dataSource.query(
    `WITH inserted AS (
       INSERT INTO campaign_contacts (campaign_id, workspace_id, phone)
       SELECT $1, $2, '+1650' || (200 + i / 10000)::text || lpad((i % 10000)::text, 4, '0') FROM generate_series(0, $3 - 1) AS i
       RETURNING 1)
     INSERT INTO campaign_contact_counts (campaign_id, shard, n) SELECT $1, 0, count(*) FROM inserted`,
    [campaignId, workspaceId, contacts],
  );
  await app.get(CreditWallet).execute({ workspaceId: workspaceId, amountMinor: 1_000_000_000_000 });
  // Every run starts from the dead rows of none before it, as with autovacuum (decisions.md 47.9, 16.42).
  await vacuumBenchDatabase(dataSource);

  profile.reset();
  const started = process.hrtime.bigint();
  await app.get(CampaignLifecycle).start(workspaceId, campaignId, { reservedConcurrency: lines });
  let lastReport = Date.now();
  for (;;) {
    const [{ status }]: Array<{ status: string }> = await dataSource.query(`SELECT status FROM campaigns WHERE id = $1`, [campaignId]);
    if (status === 'COMPLETED') break;
    if (status !== 'RUNNING') throw new Error(`campaign ${label} is ${status}`);
    if (Date.now() - lastReport > 10_000) {
      lastReport = Date.now();
      const [{ n }]: Array<{ n: number }> = await dataSource.query(
        `SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1 AND status IN ('COMPLETED','FAILED','DO_NOT_CALL')`,
        [campaignId],
      );
      process.stderr.write(`  ${label}: ${fmt(n)} / ${fmt(contacts)} contacts final\n`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (process.env.BENCH_PROFILE === '1') process.stderr.write(profile.report(contacts) + '\n');

  const statusRows: Array<{ status: string; n: number }> = await dataSource.query(
    `SELECT status, count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1 GROUP BY status ORDER BY status`,
    [campaignId],
  );
  const [{ calls }]: Array<{ calls: number }> = await dataSource.query(`SELECT count(*)::int AS calls FROM calls WHERE campaign_id = $1`, [campaignId]);
  const [ledger]: Array<{ credits: string; debits: string; n: number; balance: string }> = await dataSource.query(
    `SELECT COALESCE(SUM(amount_minor) FILTER (WHERE kind = 'credit'), 0) AS credits,
            COALESCE(SUM(amount_minor) FILTER (WHERE kind = 'debit'), 0) AS debits,
            count(*) FILTER (WHERE kind = 'debit')::int AS n,
            (SELECT balance_minor FROM wallets WHERE workspace_id = $1) AS balance
       FROM ledger_entries WHERE workspace_id = $1`,
    [workspaceId],
  );
  // Where an attempt's time goes: claim → dial (outbox relay, queue, pick-up, call row) and dial → settled.
  const [timing]: Array<{ claim_to_dial: number; dial_to_settled: number }> = await dataSource.query(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM k.started_at - c.attempt_started_at) * 1000) AS claim_to_dial,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM c.updated_at - k.started_at) * 1000) AS dial_to_settled
       FROM campaign_contacts c JOIN calls k ON k.id = c.current_call_id
      WHERE c.campaign_id = $1`,
    [campaignId],
  );
  await dataSource.query(`DELETE FROM calls WHERE campaign_id = $1`, [campaignId]);
  await dataSource.query(`DELETE FROM campaigns WHERE id = $1`, [campaignId]);
  return {
    contacts,
    seconds,
    perSecond: contacts / seconds,
    calls,
    debits: ledger.n,
    ledgerMatches: Number(ledger.credits) - Number(ledger.debits) === Number(ledger.balance),
    byStatus: Object.fromEntries(statusRows.map((r) => [r.status, r.n])),
    claimToDialMs: Number(timing.claim_to_dial),
    dialToSettledMs: Number(timing.dial_to_settled),
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  await runMigrations(config, serviceMigrations()); // creates the database when missing
  await emptyRedisPrefix(config);

  process.stderr.write(`raw BullMQ: ${fmt(CONTACTS)} no-op jobs…\n`);
  const noop = await bullmqNoop(config, CONTACTS, CONCURRENCY);

  process.stderr.write(`engine, zero-latency sandbox: ${fmt(CONTACTS)} contacts…\n`);
  let app = await boot(0);
  const fast = await runCampaign(app, CONTACTS, CONCURRENCY, 'zero-latency');
  let few: RunResult | null = null;
  if (FEW_LINES > 0) {
    process.stderr.write(`the same at ${fmt(FEW_LINES)} lines: ${fmt(FEW_LINES_CONTACTS)} contacts…\n`);
    few = await runCampaign(app, FEW_LINES_CONTACTS, FEW_LINES, `zero-latency, ${FEW_LINES} lines`);
  }
  await app.close();
  await emptyRedisPrefix(config);

  process.stderr.write(`engine, ${LATENCY_MS} ms sandbox latency: ${fmt(LATENCY_CONTACTS)} contacts…\n`);
  app = await boot(LATENCY_MS);
  const slow = await runCampaign(app, LATENCY_CONTACTS, LATENCY_CONCURRENCY, `${LATENCY_MS}ms`);
  await app.close();
  await emptyRedisPrefix(config);

  const expectedSlow = LATENCY_CONCURRENCY / (LATENCY_MS / 1000);
  const row = (a: string, b: string, c: string, d: string) => `${a.padEnd(44)}${b.padStart(10)}${c.padStart(10)}${d.padStart(14)}`;
  const out = [
    `engine benchmark: node ${process.version}, one worker process; lines (workspace allocation = reservation): ` +
      `${CONCURRENCY} in the zero-latency run, ${LATENCY_CONCURRENCY} in the ${LATENCY_MS} ms run; BullMQ worker concurrency ${CONCURRENCY}`,
    '',
    row('run', 'items', 'seconds', 'items/s'),
    row('raw BullMQ no-op jobs (1 worker)', fmt(CONTACTS), noop.seconds.toFixed(2), fmt(noop.perSecond)),
    row(`engine, zero latency, ${CONCURRENCY} lines (contacts)`, fmt(fast.contacts), fast.seconds.toFixed(2), fmt(fast.perSecond)),
    ...(few ? [row(`  the same at ${FEW_LINES} lines (latency-bound)`, fmt(few.contacts), few.seconds.toFixed(2), fmt(few.perSecond))] : []),
    row(`engine, ${LATENCY_MS} ms latency, ${LATENCY_CONCURRENCY} lines (contacts)`, fmt(slow.contacts), slow.seconds.toFixed(2), fmt(slow.perSecond)),
    '',
    `engine (zero latency) / raw BullMQ: ${(fast.perSecond / noop.perSecond).toFixed(3)} ` +
      `(each contact is ~3 jobs — attempt, analysis, dispatch wake-up — plus ~2 transactions and a ledger row)`,
    `${LATENCY_MS} ms run / expected lines ÷ latency (${LATENCY_CONCURRENCY} ÷ ${LATENCY_MS / 1000} s = ${fmt(expectedSlow)}/s): ${(slow.perSecond / expectedSlow).toFixed(2)}`,
    `zero-latency / ${LATENCY_MS} ms run: ${(fast.perSecond / slow.perSecond).toFixed(2)}`,
    `median attempt: claim → dial ${fast.claimToDialMs.toFixed(0)} ms, dial → settled ${fast.dialToSettledMs.toFixed(0)} ms (zero latency); ` +
      `${slow.claimToDialMs.toFixed(0)} ms, ${slow.dialToSettledMs.toFixed(0)} ms (${LATENCY_MS} ms latency)`,
    '',
    `checks: zero-latency ${JSON.stringify(fast.byStatus)}, calls ${fmt(fast.calls)}, debits ${fmt(fast.debits)}, ledger sum = balance: ${fast.ledgerMatches}`,
    ...(few ? [`        at ${FEW_LINES} lines ${JSON.stringify(few.byStatus)}, calls ${fmt(few.calls)}, debits ${fmt(few.debits)}, ledger sum = balance: ${few.ledgerMatches}`] : []),
    `        ${LATENCY_MS} ms ${JSON.stringify(slow.byStatus)}, calls ${fmt(slow.calls)}, debits ${fmt(slow.debits)}, ledger sum = balance: ${slow.ledgerMatches}`,
  ];
  out.push(
    `goal ≥ ${fmt(GOAL_PER_SECOND)} contacts/s end to end (issue 19 item 4; ${(GOAL_PER_SECOND / noop.perSecond).toFixed(3)} × raw BullMQ in this run): ${fast.perSecond >= GOAL_PER_SECOND ? 'met' : 'NOT met'}`,
    benchJson({
      bench: 'bench:engine',
      path: 'voice contact, zero-latency sandbox (claim → attempt → outcome → ledger → settled)',
      unit: 'contacts/s',
      service: fast.perSecond,
      raw: noop.perSecond,
      rawName: 'BullMQ no-op jobs, 1 worker',
      goal: GOAL_PER_SECOND / noop.perSecond,
      p99ms: null,
    }),
    benchJson({
      bench: 'bench:engine',
      path: `voice contact, ${LATENCY_MS} ms sandbox latency, ${LATENCY_CONCURRENCY} lines`,
      unit: 'contacts/s',
      service: slow.perSecond,
      raw: expectedSlow,
      rawName: 'lines ÷ latency',
      goal: null,
      p99ms: null,
    }),
  );
  process.stdout.write(out.join('\n') + '\n');
  const consistent = (run: RunResult) => run.calls === run.contacts && run.ledgerMatches;
  if (!consistent(fast) || !consistent(slow) || (few !== null && !consistent(few))) {
    throw new Error('consistency check failed (see above)');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
