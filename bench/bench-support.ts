// Helpers shared by the benchmarks (not part of the service).
import { randomInt } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { ProvisionAgent } from '@outreach/agents';
import { CampaignEditing, CampaignPhoneNumbers } from '@outreach/campaigns';
import { AppConfig, bullPrefix, redisOptions, registeredMigrations } from '@outreach/platform';
import { Queue, Worker } from 'bullmq';
import { PhoneNumberAdministration } from '@outreach/telephony';
import { WorkspaceAdministration } from '@outreach/workspaces';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { benchJsonLine, measuredRow } from './bench-load';
// Creating an agent is an HTTP/CLI action; the benches call the use case directly (not exported).
import { CreateAgent } from '../libs/agents/src/application/create-agent.use-case';

/**
 * Loads every module's public entry, as each app's composition root does, and returns every
 * migration they registered (the whole schema) for benches that boot only a few Nest modules.
 */
export function serviceMigrations(): ReturnType<typeof registeredMigrations> {
  const libs = join(__dirname, '../libs');
  for (const lib of readdirSync(libs)) {
    const entry = join(libs, lib, 'src', 'index');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (existsSync(`${entry}.ts`) || existsSync(`${entry}.js`)) require(entry);
  }
  return registeredMigrations();
}

/** `--name N` from the command line (or the fallback): a positive whole number. */
export function argument(name: string, fallback: string): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = Number(index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
  return value;
}

/**
 * `--few-lines N` (BENCH_FEW_LINES, default 100): the lines of a second, latency-bound run printed
 * beside the headline one (decisions.md 47.12); 0 skips it.
 */
export function fewLinesArgument(): number {
  const index = process.argv.indexOf('--few-lines');
  const value = Number(index >= 0 ? process.argv[index + 1] : (process.env.BENCH_FEW_LINES ?? '100'));
  if (!Number.isInteger(value) || value < 0) throw new Error('--few-lines must be a whole number (0: no second run)');
  return value;
}

/** Removes every key under the bench's Redis prefix. */
export async function emptyRedisPrefix(config: AppConfig): Promise<void> {
  const redis = new Redis(redisOptions(config));
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.redisPrefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

/**
 * A new workspace with `lines` of concurrency, a provisioned agent, and a VOICE campaign (not
 * started, no contacts) of that source, dialling around the clock in UTC (recipient hours off), with one caller id.
 */
export async function benchCampaign(
  app: INestApplicationContext,
  label: string,
  options: { source: 'CSV' | 'API'; lines: number },
): Promise<{ workspaceId: string; campaignId: string }> {
  const { workspace } = await app.get(WorkspaceAdministration).create({ name: `bench ${label} ${new Date().toISOString()}`, concurrency: options.lines });
  const agent = await app.get(CreateAgent).execute(workspace.id, { name: 'Bench agent', voice: 'aria', prompt: 'You are calling about an enquiry.' });
  await app.get(ProvisionAgent).execute(agent.id);
  const { campaign } = await app.get(CampaignEditing).create(workspace.id, {
    name: `bench ${label}`,
    channel: 'VOICE',
    source: options.source,
    agentId: agent.id,
    timezone: 'UTC',
    dailyWindowStart: '00:00',
    dailyWindowEnd: '00:00',
    recipientHours: 'off', // around the clock: the benches run at any hour of the recipients' day
    retryCount: 0,
  });
  const number = await app.get(PhoneNumberAdministration).add({ workspaceId: workspace.id, e164: `+1415${200 + randomInt(700)}${String(randomInt(10000)).padStart(4, '0')}` });
  await app.get(CampaignPhoneNumbers).attach(workspace.id, campaign.id, number.id);
  return { workspaceId: workspace.id, campaignId: campaign.id };
}

/**
 * `VACUUM ANALYZE` of the bench database before a run is measured. A production Postgres runs
 * autovacuum; this machine's has it off, so without this every run inherits the dead rows and the
 * stale statistics of the runs before it, and the same build measured 538 then 216 messages/s
 * (decisions.md 47.9).
 */
export async function vacuumBenchDatabase(dataSource: DataSource): Promise<void> {
  await dataSource.query('VACUUM ANALYZE');
}

/** Raw BullMQ: N no-op jobs added in bulk and consumed by one Worker of `concurrency` (the yardstick the engine benches print beside their rate). */
export async function bullmqNoop(config: AppConfig, jobs: number, concurrency: number): Promise<{ seconds: number; perSecond: number }> {
  const prefix = `${bullPrefix(config)}-noop`;
  const queue = new Queue('bench-noop', { prefix, connection: redisOptions(config, { maxRetriesPerRequest: null }) });
  await queue.obliterate({ force: true });
  let done = 0;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const worker = new Worker('bench-noop', async () => undefined, {
    prefix,
    connection: redisOptions(config, { maxRetriesPerRequest: null }),
    concurrency,
    autorun: false,
  });
  worker.on('completed', () => {
    done++;
    if (done === jobs) finish();
  });
  const started = process.hrtime.bigint();
  void worker.run();
  for (let i = 0; i < jobs; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, jobs - i) }, (_, k) => ({ name: 'noop', data: { id: i + k }, opts: { removeOnComplete: true } }));
    await queue.addBulk(batch);
  }
  await finished;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return { seconds, perSecond: jobs / seconds };
}

/**
 * `BENCH_PROFILE=1`: counts every SQL statement the process sends (by its text, numbers and
 * placeholders folded) with its total time, and returns a report of the heaviest; the profile
 * behind decisions.md 44. Patches node-postgres's Client.query; the benches only.
 */
export function profileStatements(): { report(perItem: number, top?: number): string; reset(): void } {
  const stats = new Map<string, { n: number; ms: number }>();
  if (process.env.BENCH_PROFILE !== '1') return { report: () => '', reset: () => undefined };
  // BENCH_PROFILE_CALLERS=<text>: also count, for statements containing that text, who sent them.
  const callersOf = process.env.BENCH_PROFILE_CALLERS;
  const callers = new Map<string, number>();
  if (callersOf) Error.stackTraceLimit = 60;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pg = require('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = (typeof first === 'string' ? first : (first?.text ?? '?')).replace(/\s+/g, ' ').replace(/\$\d+/g, '$').slice(0, 140);
    if (callersOf && text.includes(callersOf)) {
      // The service's frames (async ones included) that led to the statement.
      const frames = (new Error().stack ?? '').split('\n').filter((l) => l.includes('/dist/libs/')).slice(0, 4);
      const key = frames.map((l) => l.trim().replace(/\(.*\/dist\/libs\//, '(')).join(' < ');
      callers.set(key, (callers.get(key) ?? 0) + 1);
    }
    const started = process.hrtime.bigint();
    const result = original.apply(this, args);
    const done = () => {
      const s = stats.get(text) ?? { n: 0, ms: 0 };
      s.n++;
      s.ms += Number(process.hrtime.bigint() - started) / 1e6;
      stats.set(text, s);
    };
    if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(done, done);
    else done();
    return result;
  };
  return {
    reset: () => {
      stats.clear();
      callers.clear();
    },
    report(perItem: number, top = 40) {
      const rows = [...stats.entries()].sort((a, b) => b[1].ms - a[1].ms);
      const total = rows.reduce((t, [, s]) => t + s.n, 0);
      const lines = [`statements: ${total} (${(total / perItem).toFixed(1)} per item), by total time:`];
      for (const [text, s] of rows.slice(0, top)) lines.push(`${String(s.n).padStart(8)} ${(s.n / perItem).toFixed(2).padStart(6)}/item ${s.ms.toFixed(0).padStart(8)} ms  ${text}`);
      if (callersOf) {
        lines.push(`callers of statements containing ${JSON.stringify(callersOf)}:`);
        for (const [key, n] of [...callers.entries()].sort((a, b) => b[1] - a[1])) lines.push(`${String(n).padStart(8)} ${(n / perItem).toFixed(2).padStart(6)}/item  ${key}`);
      }
      return lines.join('\n');
    },
  };
}

/** One machine-readable line per measured path (the common format `npm run bench` collects). */
export function benchJson(line: {
  bench: string;
  path: string;
  unit: 'req/s' | 'contacts/s' | 'msg/s' | 'rows/s' | 'steps/s';
  service: number;
  raw: number;
  rawName: string;
  goal: number | null;
  p99ms: number | null;
}): string {
  return benchJsonLine(measuredRow(line));
}
