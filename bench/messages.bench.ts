/*
 * Message legs benchmark (decisions.md 33): a WHATSAPP campaign of N contacts (default 100,000) run
 * end to end by the real worker side (outbox relay, dispatch, attempt processors, messaging's
 * SendMessage and the zero-latency sandbox with its in-process reports) — claim → attempt →
 * message QUEUED → SENT + ledger debit → delivered report → contact settled — timed from start to
 * COMPLETED, printed beside raw BullMQ no-op throughput on the same Redis in the same run.
 *
 *   npm run bench:messages                                    # 100,000 contacts, 1,000 lines; then 20,000 at 100 lines
 *   npm run bench:messages -- --contacts 5000 --concurrency 500 --few-lines 0   # --few-lines 0: no second run
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_bench), created
 * and migrated when missing; Redis as REDIS_URL under its own prefix (BENCH_REDIS_PREFIX, default
 * outreach_bench_messages), emptied before and after. The bench deletes the campaign it created, and
 * its workspace's messages, opt-outs and ledger entries.
 * Not part of `npm test`.
 */
import 'reflect-metadata';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BillingModule, CreditWallet } from '@outreach/billing';
import { CampaignEditing, CampaignLifecycle, CampaignsCoreModule } from '@outreach/campaigns';
import { EngineWorkerModule } from '@outreach/engine';
import { MessagingCoreModule, MessagingWorkerModule, WhatsappSenders, WhatsappTemplates } from '@outreach/messaging';
import { loadConfig, PlatformModule, runMigrations } from '@outreach/platform';
import { WorkspaceAdministration, WorkspacesCoreModule } from '@outreach/workspaces';
import { DataSource } from 'typeorm';
import { argument, benchJson, fewLinesArgument, profileStatements, bullmqNoop, emptyRedisPrefix, serviceMigrations, vacuumBenchDatabase } from './bench-support';

const CONTACTS = argument('contacts', process.env.BENCH_CONTACTS ?? '100000');
// Lines (the workspace's concurrency, all reserved by the campaign). A message leg holds its line
// from its claim to its first report, which at zero latency is only the engine's own work (about
// 150 ms a batch): with few lines that cycle, not the engine's capacity, is what is measured. So
// the headline run gives the campaign enough lines not to be the limit, and a second, shorter run
// at 100 lines prints the latency-bound figure beside it (decisions.md 47.12).
const CONCURRENCY = argument('concurrency', process.env.BENCH_CONCURRENCY ?? '1000');
const FEW_LINES = fewLinesArgument();
const FEW_LINES_CONTACTS = Math.min(CONTACTS, argument('few-lines-contacts', process.env.BENCH_FEW_LINES_CONTACTS ?? '20000'));
const GOAL_PER_SECOND = 2000;
process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench';
process.env.REDIS_PREFIX = process.env.BENCH_REDIS_PREFIX ?? 'outreach_bench_messages';
process.env.LOG_LEVEL = 'silent';
process.env.DB_QUERY_TIMEOUT_MS = '600000';
process.env.DB_POOL_SIZE = process.env.DB_POOL_SIZE ?? '20';
process.env.DB_CONNECT_TIMEOUT_MS = process.env.DB_CONNECT_TIMEOUT_MS ?? '5000';
process.env.OUTBOX_POLL_MS = process.env.OUTBOX_POLL_MS ?? '10';
process.env.DISPATCH_TICK_MS = process.env.DISPATCH_TICK_MS ?? '200';
process.env.ATTEMPT_CONCURRENCY = String(CONCURRENCY);

/** The worker side of the engine and messaging, as apps/worker wires them, plus what seeding needs. */
@Module({
  imports: [
    PlatformModule.forRoot({ role: 'worker', migrations: serviceMigrations(), configDefaults: { dbQueryTimeoutMs: 600_000 } }),
    EngineWorkerModule,
    MessagingWorkerModule,
    MessagingCoreModule,
    WorkspacesCoreModule,
    BillingModule,
    CampaignsCoreModule,
  ],
})
class MessagesBenchModule {}

const profile = profileStatements();
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** A workspace with `lines` lines, a CONNECTED sandbox sender, an APPROVED template, and a WHATSAPP campaign of N contacts; started and run to COMPLETED. */
async function runCampaign(app: INestApplicationContext, contacts: number, lines: number) {
  const dataSource = app.get(DataSource);
  const { workspace } = await app.get(WorkspaceAdministration).create({ name: `bench messages ${new Date().toISOString()}`, concurrency: lines });
  const senders = app.get(WhatsappSenders);
  const sender = await senders.connectOwn(workspace.id, {
    phoneNumber: '+14155550197',
    credentials: { accessToken: 'bench', phoneNumberId: '1', businessAccountId: '1' },
  } as Parameters<WhatsappSenders['connectOwn']>[1]);
  await senders.verify(sender.id); // the worker's verify-sender job, run here at once
  const templates = app.get(WhatsappTemplates);
  const template = await templates.create(workspace.id, {
    name: 'bench_outreach',
    language: 'en_US',
    category: 'MARKETING',
    body: 'Hi {{1}}, a message from Acme.',
    footer: null,
    bindings: [{ placeholder: 1, source: 'CONTACT_FIELD', value: 'phone' }],
  });
  await templates.submit(workspace.id, template.id);
  await templates.review(template.id);
  const { campaign } = await app.get(CampaignEditing).create(workspace.id, {
    name: 'bench messages',
    channel: 'WHATSAPP',
    source: 'CSV',
    whatsappOutreachTemplateId: template.id,
    timezone: 'UTC',
    dailyWindowStart: '00:00',
    dailyWindowEnd: '00:00',
    recipientHours: 'off',
    retryCount: 0,
  });
  // Contacts by SQL: +1 650 <exchange> <line>, last digits 2-9 (delivered or read, some replies; no sandbox failure).
  await dataSource.query(
    `WITH inserted AS (
       INSERT INTO campaign_contacts (campaign_id, workspace_id, phone)
       SELECT $1, $2, '+1650' || (200 + i / 1000)::text || lpad(((i % 1000) * 10 + 2 + i % 8)::text, 4, '0') FROM generate_series(0, $3 - 1) AS i
       RETURNING 1)
     INSERT INTO campaign_contact_counts (campaign_id, shard, n) SELECT $1, 0, count(*) FROM inserted`,
    [campaign.id, workspace.id, contacts],
  );
  await app.get(CreditWallet).execute({ workspaceId: workspace.id, amountMinor: 1_000_000_000_000 });
  await vacuumBenchDatabase(dataSource);

  profile.reset();
  const started = process.hrtime.bigint();
  await app.get(CampaignLifecycle).start(workspace.id, campaign.id, { reservedConcurrency: lines });
  let lastReport = Date.now();
  for (;;) {
    const [{ status }]: Array<{ status: string }> = await dataSource.query(`SELECT status FROM campaigns WHERE id = $1`, [campaign.id]);
    if (status === 'COMPLETED') break;
    if (status !== 'RUNNING') throw new Error(`the campaign is ${status}`);
    if (Date.now() - lastReport > 10_000) {
      lastReport = Date.now();
      const [{ n }]: Array<{ n: number }> = await dataSource.query(
        `SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1 AND status IN ('COMPLETED','FAILED','DO_NOT_CALL')`,
        [campaign.id],
      );
      process.stderr.write(`  ${fmt(n)} / ${fmt(contacts)} contacts final\n`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (process.env.BENCH_PROFILE === '1') process.stderr.write(profile.report(contacts) + '\n');
  const statusRows: Array<{ status: string; n: number }> = await dataSource.query(
    `SELECT status, count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1 GROUP BY status ORDER BY status`,
    [campaign.id],
  );
  const [{ messages, distinct }]: Array<{ messages: number; distinct: number }> = await dataSource.query(
    `SELECT count(*)::int AS messages, count(DISTINCT address)::int AS distinct FROM messages WHERE workspace_id = $1 AND direction = 'OUTBOUND'`,
    [workspace.id],
  );
  const [ledger]: Array<{ credits: string; debits: string; n: number; balance: string }> = await dataSource.query(
    `SELECT COALESCE(SUM(amount_minor) FILTER (WHERE kind = 'credit'), 0) AS credits,
            COALESCE(SUM(amount_minor) FILTER (WHERE kind = 'debit'), 0) AS debits,
            count(*) FILTER (WHERE kind = 'debit')::int AS n,
            (SELECT balance_minor FROM wallets WHERE workspace_id = $1) AS balance
       FROM ledger_entries WHERE workspace_id = $1`,
    [workspace.id],
  );
  await dataSource.query(`DELETE FROM campaigns WHERE id = $1`, [campaign.id]);
  // The run's messages, opt-outs and ledger go too (the wallet back to the empty ledger's zero), so
  // the bench database does not grow by a run's rows each time and every run starts from the same tables.
  for (const table of ['messages', 'message_opt_outs', 'ledger_entries']) await dataSource.query(`DELETE FROM ${table} WHERE workspace_id = $1`, [workspace.id]);
  await dataSource.query(`UPDATE wallets SET balance_minor = 0 WHERE workspace_id = $1`, [workspace.id]);
  return {
    seconds,
    perSecond: contacts / seconds,
    messages,
    distinct,
    debits: ledger.n,
    ledgerMatches: Number(ledger.credits) - Number(ledger.debits) === Number(ledger.balance),
    byStatus: Object.fromEntries(statusRows.map((r) => [r.status, r.n])),
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  await runMigrations(config, serviceMigrations()); // creates the database when missing
  await emptyRedisPrefix(config);

  process.stderr.write(`raw BullMQ: ${fmt(CONTACTS)} no-op jobs…\n`);
  const noop = await bullmqNoop(config, CONTACTS, CONCURRENCY);

  process.stderr.write(`WhatsApp campaign, zero-latency sandbox: ${fmt(CONTACTS)} contacts…\n`);
  const app = await NestFactory.createApplicationContext(MessagesBenchModule, { logger: false, abortOnError: false });
  await app.init();
  const run = await runCampaign(app, CONTACTS, CONCURRENCY);
  let few: Awaited<ReturnType<typeof runCampaign>> | null = null;
  if (FEW_LINES > 0) {
    process.stderr.write(`the same at ${fmt(FEW_LINES)} lines: ${fmt(FEW_LINES_CONTACTS)} contacts…\n`);
    few = await runCampaign(app, FEW_LINES_CONTACTS, FEW_LINES);
  }
  await app.close();
  await emptyRedisPrefix(config);

  const row = (a: string, b: string, c: string, d: string) => `${a.padEnd(44)}${b.padStart(10)}${c.padStart(10)}${d.padStart(14)}`;
  const out = [
    `message legs benchmark: node ${process.version}, one worker process; ${CONCURRENCY} lines; BullMQ worker concurrency ${CONCURRENCY}`,
    '',
    row('run', 'items', 'seconds', 'items/s'),
    row('raw BullMQ no-op jobs (1 worker)', fmt(CONTACTS), noop.seconds.toFixed(2), fmt(noop.perSecond)),
    row(`WhatsApp legs, zero latency (messages)`, fmt(CONTACTS), run.seconds.toFixed(2), fmt(run.perSecond)),
    ...(few ? [row(`  the same at ${FEW_LINES} lines (latency-bound)`, fmt(FEW_LINES_CONTACTS), few.seconds.toFixed(2), fmt(few.perSecond))] : []),
    '',
    `messages / raw BullMQ: ${(run.perSecond / noop.perSecond).toFixed(3)} (message legs go in batches of up to 200: per batch one job, a few transactions and one wallet change; per message a ledger row)`,
    `goal ≥ ${fmt(GOAL_PER_SECOND)} messages/s (issue 12; ${(GOAL_PER_SECOND / noop.perSecond).toFixed(3)} × raw BullMQ in this run): ${run.perSecond >= GOAL_PER_SECOND ? 'met' : 'NOT met'}`,
    `checks: ${JSON.stringify(run.byStatus)}, messages ${fmt(run.messages)} to ${fmt(run.distinct)} numbers, debits ${fmt(run.debits)}, ledger sum = balance: ${run.ledgerMatches}`,
  ];
  out.push(
    benchJson({
      bench: 'bench:messages',
      path: 'WhatsApp leg per contact, zero-latency sandbox (claim → send → SENT + debit → report → settled)',
      unit: 'msg/s',
      service: run.perSecond,
      raw: noop.perSecond,
      rawName: 'BullMQ no-op jobs, 1 worker',
      goal: GOAL_PER_SECOND / noop.perSecond,
      p99ms: null,
    }),
  );
  if (few) out.splice(out.length - 1, 0, `checks at ${FEW_LINES} lines: ${JSON.stringify(few.byStatus)}, messages ${fmt(few.messages)}, debits ${fmt(few.debits)}, ledger sum = balance: ${few.ledgerMatches}`);
  process.stdout.write(out.join('\n') + '\n');
  const consistent = (r: typeof run, contacts: number) => r.messages === contacts && r.distinct === contacts && r.debits === contacts && r.ledgerMatches;
  if (!consistent(run, CONTACTS) || (few !== null && !consistent(few, FEW_LINES_CONTACTS))) {
    throw new Error('consistency check failed: one message and one debit per contact expected (see above)');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
