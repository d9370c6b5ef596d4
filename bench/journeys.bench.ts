/*
 * Journey runs benchmark (decisions.md 37.12): N runs (default 10,000) of a 5-step workflow —
 * start → call → WhatsApp → tag → end — run end to end by the real worker side (outbox relay,
 * dispatch admitting the contacts, step jobs, attempts and settlements through the engine's
 * JourneySteps seam, messaging's SendMessage, the zero-latency sandboxes), timed from the campaign's
 * start to its COMPLETED; step transitions/s printed beside raw BullMQ no-op throughput on the same
 * Redis in the same run.
 *
 *   npm run bench:journeys                                  # 10,000 runs
 *   npm run bench:journeys -- --runs 2000 --concurrency 100
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_bench), created
 * and migrated when missing; Redis as REDIS_URL under its own prefix (BENCH_REDIS_PREFIX, default
 * outreach_bench_journeys), emptied before and after. Not part of `npm test`.
 */
import 'reflect-metadata';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AgentsCoreModule, ProvisionAgent } from '@outreach/agents';
import { BillingModule, CreditWallet } from '@outreach/billing';
import { CallEventsModule, CallsAnalysisWorkerModule } from '@outreach/calls';
import { CampaignEditing, CampaignLifecycle, CampaignPhoneNumbers, CampaignsCoreModule } from '@outreach/campaigns';
import { EngineWorkerModule } from '@outreach/engine';
import { MessagingCoreModule, MessagingWorkerModule, WhatsappSenders, WhatsappTemplates } from '@outreach/messaging';
import { loadConfig, PlatformModule, runMigrations } from '@outreach/platform';
import { PhoneNumberAdministration, TelephonyCoreModule } from '@outreach/telephony';
import { Workflows, WorkflowsWorkerModule } from '@outreach/workflows';
import { WorkspaceAdministration, WorkspacesCoreModule } from '@outreach/workspaces';
import { DataSource } from 'typeorm';
import { CreateAgent } from '../libs/agents/src/application/create-agent.use-case';
import { argument, bullmqNoop, emptyRedisPrefix, serviceMigrations, vacuumBenchDatabase } from './bench-support';

const RUNS = argument('runs', process.env.BENCH_RUNS ?? '10000');
const CONCURRENCY = argument('concurrency', process.env.BENCH_CONCURRENCY ?? '100');
const STEPS_PER_RUN = 5;
process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench';
process.env.REDIS_PREFIX = process.env.BENCH_REDIS_PREFIX ?? 'outreach_bench_journeys';
process.env.LOG_LEVEL = 'silent';
process.env.DB_QUERY_TIMEOUT_MS = '600000';
process.env.DB_POOL_SIZE = process.env.DB_POOL_SIZE ?? '20';
process.env.DB_CONNECT_TIMEOUT_MS = process.env.DB_CONNECT_TIMEOUT_MS ?? '5000';
process.env.OUTBOX_POLL_MS = process.env.OUTBOX_POLL_MS ?? '10';
process.env.DISPATCH_TICK_MS = process.env.DISPATCH_TICK_MS ?? '200';
process.env.ATTEMPT_CONCURRENCY = String(CONCURRENCY);
process.env.SANDBOX_VOICE_LATENCY_MS = '0';

/** The worker side of the engine, messaging and workflows, as apps/worker wires them, plus what seeding needs. */
@Module({
  imports: [
    PlatformModule.forRoot({ role: 'worker', migrations: serviceMigrations(), configDefaults: { dbQueryTimeoutMs: 600_000 } }),
    EngineWorkerModule,
    MessagingWorkerModule,
    MessagingCoreModule,
    WorkflowsWorkerModule,
    // An answered call's run waits for the call's analysis (decisions.md 37.20): the calls worker analyses it.
    CallsAnalysisWorkerModule,
    // Every call's progress events go through the calls module's intake, as in apps/worker (decisions.md 16.43).
    CallEventsModule,
    WorkspacesCoreModule,
    BillingModule,
    CampaignsCoreModule,
    AgentsCoreModule,
    TelephonyCoreModule,
  ],
})
class JourneysBenchModule {}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function runJourneys(app: INestApplicationContext, runs: number, lines: number) {
  const dataSource = app.get(DataSource);
  const admin = app.get(WorkspaceAdministration);
  const { workspace } = await admin.create({ name: `bench journeys ${new Date().toISOString()}`, concurrency: lines });
  await admin.update(workspace.id, { featureChanges: ['+workflows', '+whatsapp'] });
  const agent = await app.get(CreateAgent).execute(workspace.id, { name: 'Bench agent', voice: 'aria', prompt: 'You are calling about an enquiry.' });
  await app.get(ProvisionAgent).execute(agent.id);
  const senders = app.get(WhatsappSenders);
  const sender = await senders.connectOwn(workspace.id, {
    phoneNumber: '+14155550198',
    credentials: { accessToken: 'bench', phoneNumberId: '1', businessAccountId: '1' },
  } as Parameters<WhatsappSenders['connectOwn']>[1]);
  await senders.verify(sender.id);
  const templates = app.get(WhatsappTemplates);
  const template = await templates.create(workspace.id, {
    name: 'bench_journey',
    language: 'en_US',
    category: 'MARKETING',
    body: 'Hi {{1}}, a message from Acme.',
    footer: null,
    bindings: [{ placeholder: 1, source: 'CONTACT_FIELD', value: 'phone' }],
  });
  await templates.submit(workspace.id, template.id);
  await templates.review(template.id);
  const workflows = app.get(Workflows);
  const created = await workflows.create(workspace.id, {
    name: 'bench journey',
    definition: {
      nodes: [
        { id: 'start', kind: 'start', config: {} },
        { id: 'call', kind: 'call', config: { agentId: agent.id } },
        { id: 'wa', kind: 'whatsapp', config: { templateId: template.id } },
        { id: 'tag', kind: 'tag', config: { tag: 'reached' } },
        { id: 'end', kind: 'end', label: 'done', config: {} },
      ],
      edges: [
        { from: 'start', port: 'next', to: 'call' },
        ...['answered', 'no_answer', 'voicemail', 'failed', 'transferred'].map((port) => ({ from: 'call', port, to: 'wa' })),
        ...['sent', 'failed', 'replied'].map((port) => ({ from: 'wa', port, to: 'tag' })),
        { from: 'tag', port: 'next', to: 'end' },
      ],
    },
  });
  const workflow = await workflows.activate(workspace.id, created.id, created.revision);
  const { campaign } = await app.get(CampaignEditing).create(workspace.id, {
    name: 'bench journeys',
    channel: 'CUSTOM',
    source: 'CSV',
    workflowId: workflow.id,
    timezone: 'UTC',
    dailyWindowStart: '00:00',
    dailyWindowEnd: '00:00',
    recipientHours: 'off',
  });
  const number = await app.get(PhoneNumberAdministration).add({ workspaceId: workspace.id, e164: '+14155550199' });
  await app.get(CampaignPhoneNumbers).attach(workspace.id, campaign.id, number.id);
  // Contacts by SQL: +1 650 <exchange> <line>, last digits 5-9 (answered and completed; delivered or read).
  await dataSource.query(
    `WITH inserted AS (
       INSERT INTO campaign_contacts (campaign_id, workspace_id, phone)
       SELECT $1, $2, '+1650' || (200 + i / 1000)::text || lpad(((i % 1000) * 10 + 5 + i % 5)::text, 4, '0') FROM generate_series(0, $3 - 1) AS i
       RETURNING 1)
     INSERT INTO campaign_contact_counts (campaign_id, shard, n) SELECT $1, 0, count(*) FROM inserted`,
    [campaign.id, workspace.id, runs],
  );
  await app.get(CreditWallet).execute({ workspaceId: workspace.id, amountMinor: 1_000_000_000_000 });
  // The run starts from the dead rows of none before it, as with autovacuum (decisions.md 47.9).
  await vacuumBenchDatabase(dataSource);

  const started = process.hrtime.bigint();
  await app.get(CampaignLifecycle).start(workspace.id, campaign.id, { reservedConcurrency: lines });
  let lastReport = Date.now();
  for (;;) {
    const [{ status }]: Array<{ status: string }> = await dataSource.query(`SELECT status FROM campaigns WHERE id = $1`, [campaign.id]);
    if (status === 'COMPLETED') break;
    if (status !== 'RUNNING') throw new Error(`the campaign is ${status}`);
    if (Date.now() - lastReport > 10_000) {
      lastReport = Date.now();
      const [{ n }]: Array<{ n: number }> = await dataSource.query(`SELECT count(*)::int AS n FROM workflow_runs WHERE campaign_id = $1 AND status = 'DONE'`, [campaign.id]);
      process.stderr.write(`  ${fmt(n)} / ${fmt(runs)} runs done\n`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const [check]: Array<{ done: number; steps: number; calls: number; messages: number }> = await dataSource.query(
    `SELECT (SELECT count(*)::int FROM workflow_runs WHERE campaign_id = $1 AND status = 'DONE') AS done,
            (SELECT count(*)::int FROM workflow_steps s JOIN workflow_runs r ON r.id = s.run_id WHERE r.campaign_id = $1 AND s.status = 'DONE') AS steps,
            (SELECT count(*)::int FROM calls WHERE campaign_id = $1) AS calls,
            (SELECT count(*)::int FROM messages WHERE workspace_id = $2 AND direction = 'OUTBOUND') AS messages`,
    [campaign.id, workspace.id],
  );
  await dataSource.query(`DELETE FROM workflow_runs WHERE campaign_id = $1`, [campaign.id]);
  await dataSource.query(`DELETE FROM campaigns WHERE id = $1`, [campaign.id]);
  return { seconds, stepsPerSecond: check.steps / seconds, ...check };
}

async function main(): Promise<void> {
  const config = loadConfig();
  await runMigrations(config, serviceMigrations()); // creates the database when missing
  await emptyRedisPrefix(config);

  process.stderr.write(`raw BullMQ: ${fmt(RUNS * STEPS_PER_RUN)} no-op jobs…\n`);
  const noop = await bullmqNoop(config, RUNS * STEPS_PER_RUN, CONCURRENCY);

  process.stderr.write(`journeys, zero-latency sandboxes: ${fmt(RUNS)} runs of ${STEPS_PER_RUN} steps…\n`);
  const app = await NestFactory.createApplicationContext(JourneysBenchModule, { logger: false, abortOnError: false });
  await app.init();
  const run = await runJourneys(app, RUNS, CONCURRENCY);
  await app.close();
  await emptyRedisPrefix(config);

  const ratio = run.stepsPerSecond / noop.perSecond;
  const row = (a: string, b: string, c: string, d: string) => `${a.padEnd(44)}${b.padStart(10)}${c.padStart(10)}${d.padStart(14)}`;
  const out = [
    `journeys benchmark: node ${process.version}, one worker process; ${CONCURRENCY} lines; a shared machine: compare the ratio, not the rates`,
    '',
    row('run', 'items', 'seconds', 'items/s'),
    row('raw BullMQ no-op jobs (1 worker)', fmt(RUNS * STEPS_PER_RUN), noop.seconds.toFixed(2), fmt(noop.perSecond)),
    row('journey step transitions (5-step runs)', fmt(run.steps), run.seconds.toFixed(2), fmt(run.stepsPerSecond)),
    '',
    `step transitions / raw BullMQ: ${ratio.toFixed(3)} (a run is 3 step jobs, a dispatch claim, an attempt job, a call settlement, the answered call's analysis and a message send)`,
    `checks: runs DONE ${fmt(run.done)} / ${fmt(RUNS)}, steps ${fmt(run.steps)}, calls ${fmt(run.calls)}, messages ${fmt(run.messages)}`,
    `BENCH_JSON ${JSON.stringify({ bench: 'bench:journeys', path: '5-step journey runs (call, WhatsApp, tag), zero-latency sandbox', unit: 'steps/s', service: Math.round(run.stepsPerSecond), raw: Math.round(noop.perSecond), rawName: 'BullMQ no-op jobs', ratio: Number(ratio.toFixed(4)), goal: null, p99ms: null })}`,
  ];
  process.stdout.write(out.join('\n') + '\n');
  if (run.done !== RUNS || run.steps !== RUNS * STEPS_PER_RUN || run.calls !== RUNS || run.messages !== RUNS) {
    throw new Error('consistency check failed: every run DONE, 5 steps, one call and one message each expected (see above)');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
