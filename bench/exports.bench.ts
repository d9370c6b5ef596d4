/*
 * Export benchmark (issue 16): a finished campaign of N contacts (default 1,000,000), each with a
 * final analysed call, exported to CSV by the real use case (RunExport: the campaigns and calls
 * readers page by page, the exports domain, the CSV writer, the local file store), timed with
 * rows/s and peak RSS (also the peak after the first 100,000 rows, to show memory is flat), next to
 * a raw `COPY (SELECT …) TO STDOUT` of the same rows in the same run.
 *
 *   npm run bench:exports                        # 1,000,000 contacts
 *   npm run bench:exports -- --rows 100000       # another size
 *   npm run bench:exports -- --format XLSX       # the XLSX writer instead of CSV
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_bench_exports),
 * created and migrated when missing. The bench deletes what it created. Not part of `npm test`.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CampaignEditing, CampaignsCoreModule } from '@outreach/campaigns';
import { ExportsCoreModule, RunExport } from '@outreach/exports';
import { loadConfig, PlatformModule, runMigrations } from '@outreach/platform';
import { WorkspaceAdministration, WorkspacesCoreModule } from '@outreach/workspaces';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { argument, benchJson, serviceMigrations } from './bench-support';
// The bench watches the rows the use case reads (the port is not part of the module's public surface).
import { LeadSource } from '../libs/exports/src/application/exports.ports';
import type { ExportLead } from '../libs/exports/src/domain/export-lead';

const ROWS = argument('rows', process.env.BENCH_ROWS ?? '1000000');
const EARLY = Math.min(100_000, ROWS);
const FORMAT = process.argv.includes('--format') ? process.argv[process.argv.indexOf('--format') + 1] : 'CSV';
if (FORMAT !== 'CSV' && FORMAT !== 'XLSX') throw new Error('--format must be CSV or XLSX');
const EXT = FORMAT === 'XLSX' ? 'xlsx' : 'csv';
const exportDir = mkdtempSync(join(tmpdir(), 'bench-exports-'));
process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench_exports';
process.env.LOG_LEVEL = 'silent';
process.env.DB_QUERY_TIMEOUT_MS = '600000';
process.env.EXPORT_DIR = exportDir;

@Module({
  imports: [PlatformModule.forRoot({ role: 'cli', migrations: serviceMigrations() }), WorkspacesCoreModule, CampaignsCoreModule, ExportsCoreModule],
})
class BenchModule {}

/** Samples the resident set size while a phase runs. */
class RssSampler {
  // memoryUsage.rss() alone: the full memoryUsage() walks the heap spaces, every 10 ms, in the measured process.
  peak = process.memoryUsage.rss();
  private timer = setInterval(() => this.sample(), 10);

  sample(): number {
    this.peak = Math.max(this.peak, process.memoryUsage.rss());
    return this.peak;
  }

  stop(): number {
    clearInterval(this.timer);
    return this.sample();
  }
}

async function phase<T>(work: (sampler: RssSampler) => Promise<T>): Promise<{ result: T; seconds: number; peakRss: number }> {
  const sampler = new RssSampler();
  const started = process.hrtime.bigint();
  const result = await work(sampler);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { result, seconds, peakRss: sampler.stop() };
}

/** `COPY … TO STDOUT` with node-postgres alone: a minimal Submittable that counts the bytes and rows. */
class CopyToStdout {
  readonly done: Promise<{ bytes: number; rows: number }>;
  private settle!: (error?: Error) => void;
  private error: Error | undefined;
  private bytes = 0;
  private rows = 0;

  constructor(private readonly text: string) {
    this.done = new Promise((resolve, reject) => (this.settle = (e) => (e ? reject(e) : resolve({ bytes: this.bytes, rows: this.rows }))));
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    this.bytes += message.chunk.length;
    this.rows += 1; // COPY sends one CopyData message per row
  }

  handleCopyOutResponse(): void {}
  handleCommandComplete(): void {}
  handleError(error: Error): void {
    this.error = error;
  }
  handleReadyForQuery(): void {
    this.settle(this.error);
  }
  handleEmptyQuery(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handlePortalSuspended(): void {}
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const rate = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString('en-US');

async function main(): Promise<void> {
  await runMigrations(loadConfig(), serviceMigrations()); // creates the database when missing
  const app = await NestFactory.createApplicationContext(BenchModule, { logger: false, abortOnError: false });
  const db = app.get(DataSource);

  const { workspace } = await app.get(WorkspaceAdministration).create({ name: `bench exports ${new Date().toISOString()}`, features: ['exports'] });
  const { campaign } = await app.get(CampaignEditing).create(workspace.id, {
    name: `bench exports ${ROWS}`,
    channel: 'VOICE',
    source: 'CSV',
    customExtractionKeys: [{ name: 'budget', type: 'integer', description: 'Budget' }],
    customExtractionKeysMode: 'REPLACE',
    evaluationMetrics: [{ key: 'qualified', label: 'Qualified', allowedValues: ['yes', 'no'], prompt: 'Qualified?', builtin: false }],
  });
  const seeded = await phase(async () => {
    await db.query(
      `INSERT INTO campaign_contacts (campaign_id, workspace_id, phone, name, fields, status, attempts, last_attempt_at, last_outcome, connected_phone)
       SELECT $1, $2, '+1' || (4150000000 + i)::text, 'Contact ' || i, jsonb_build_object('plan', CASE WHEN i % 2 = 0 THEN 'gold' ELSE 'silver' END),
              'COMPLETED', 1, now() - interval '1 day', 'completed', '+1' || (4150000000 + i)::text
         FROM generate_series(1, ${ROWS}) i ORDER BY i`,
      [campaign.id, workspace.id],
    );
    await db.query(
      `INSERT INTO calls (id, workspace_id, campaign_id, contact_id, to_number, kind, status, outcome, attempt_number, started_at, ended_at, duration_ms, extraction, evaluation, analysis_status)
       SELECT gen_random_uuid(), workspace_id, campaign_id, id, phone, 'campaign', 'ENDED', 'completed', 1, last_attempt_at, last_attempt_at + interval '1 minute',
              60000, jsonb_build_object('budget', seq % 1000), jsonb_build_object('qualified', CASE WHEN seq % 4 = 0 THEN 'yes' ELSE 'no' END), 'DONE'
         FROM campaign_contacts WHERE campaign_id = $1`,
      [campaign.id],
    );
    await db.query(`ANALYZE campaign_contacts; ANALYZE calls`);
  });

  // Watch the rows the use case reads: the peak RSS once EARLY rows have gone through.
  const source = app.get(LeadSource);
  const pages = source.pages.bind(source);
  let read = 0;
  let earlyPeak = 0;
  let sampler: RssSampler | null = null;
  source.pages = async function* (...args: Parameters<LeadSource['pages']>): AsyncIterable<ExportLead[]> {
    for await (const page of pages(...args)) {
      read += page.length;
      if (read >= EARLY && earlyPeak === 0 && sampler) earlyPeak = sampler.sample();
      yield page;
    }
  };

  const baseline = process.memoryUsage().rss;
  const exportId = randomUUID();
  await db.query(
    `INSERT INTO export_jobs (id, workspace_id, campaign_id, format, status, progress, expected_rows, spec, file_name, created_at)
     VALUES ($1, $2, $3, $6, 'queued', 0, $4, $5, 'bench', now())`,
    [exportId, workspace.id, campaign.id, ROWS, JSON.stringify({ period: 'all_time', from: null, to: null, segment: null, filter: null, columns: null }), FORMAT],
  );
  const cpuBefore = process.cpuUsage();
  const exported = await phase(async (s) => {
    sampler = s;
    return app.get(RunExport).execute({ exportId });
  });
  const cpu = process.cpuUsage(cpuBefore);
  const exportCpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (exported.result.status !== 'ready' || exported.result.rowCount !== ROWS) throw new Error(`export: ${JSON.stringify(exported.result)}`);
  const fileBytes = statSync(join(exportDir, workspace.id, `${exportId}.${EXT}`)).size;

  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const copy = await phase(async () => {
    const submittable = new CopyToStdout(
      `COPY (SELECT c.id, c.phone, c.name, c.status, c.attempts, c.last_outcome, c.last_attempt_at, c.connected_phone,
                    k.id, k.started_at, round(k.duration_ms / 1000.0), c.fields ->> 'plan', k.extraction ->> 'budget', k.evaluation ->> 'qualified'
               FROM campaign_contacts c
               LEFT JOIN LATERAL (SELECT id, started_at, duration_ms, extraction, evaluation FROM calls
                                   WHERE contact_id = c.id AND workspace_id = c.workspace_id AND kind = 'campaign'
                                   ORDER BY started_at DESC, id DESC LIMIT 1) k ON true
              WHERE c.campaign_id = '${campaign.id}' ORDER BY c.seq) TO STDOUT WITH (FORMAT csv, HEADER true)`,
    );
    void client.query(submittable as never);
    return submittable.done;
  });
  await client.end();

  await db.query(`DELETE FROM export_jobs WHERE workspace_id = $1`, [workspace.id]);
  await db.query(`DELETE FROM calls WHERE workspace_id = $1`, [workspace.id]);
  await db.query(`DELETE FROM campaigns WHERE workspace_id = $1`, [workspace.id]);
  await app.close();
  rmSync(exportDir, { recursive: true, force: true });

  const ratio = exported.seconds / copy.seconds;
  const rows: Array<[string, string, string, string]> = [
    [`export to ${FORMAT} (RunExport)`, exported.seconds.toFixed(2), rate(ROWS, exported.seconds), mb(exported.peakRss)],
    [`raw COPY (SELECT …) TO STDOUT`, copy.seconds.toFixed(2), rate(copy.result.rows - 1, copy.seconds), mb(copy.peakRss)],
  ];
  const out = [
    `export benchmark: ${ROWS.toLocaleString('en-US')} contacts with their final calls (seeded in ${seeded.seconds.toFixed(1)} s), node ${process.version}`,
    '',
    `${'phase'.padEnd(34)}${'seconds'.padStart(9)}${'rows/s'.padStart(12)}${'peak RSS MB'.padStart(13)}`,
    ...rows.map(([a, b, c, d]) => `${a.padEnd(34)}${b.padStart(9)}${c.padStart(12)}${d.padStart(13)}`),
    '',
    `export speed / raw COPY: ${(1 / ratio).toFixed(2)}x (goal >= 0.3x)`,
    `node CPU during the export: ${exportCpuSeconds.toFixed(2)} s in ${exported.seconds.toFixed(2)} s (${(exportCpuSeconds / exported.seconds).toFixed(2)} s per second: ${exportCpuSeconds / exported.seconds >= 0.9 ? 'this process is the limit, not Postgres' : 'it also waited on Postgres'})`,
    `RSS before the export: ${mb(baseline)} MB (the process with every module loaded, after seeding)`,
    `peak RSS after ${EARLY.toLocaleString('en-US')} rows: ${mb(earlyPeak)} MB; after all ${ROWS.toLocaleString('en-US')}: ${mb(exported.peakRss)} MB (goal < 250 MB, flat)`,
    `file ${(fileBytes / 1024 / 1024).toFixed(1)} MB; COPY sent ${(copy.result.bytes / 1024 / 1024).toFixed(1)} MB`,
    // For `npm run bench`'s table (run-all.ts); the RSS goal is in the lines above.
    benchJson({
      bench: 'bench:exports',
      path: `export of ${ROWS.toLocaleString('en-US')} contacts to ${FORMAT} (RunExport), peak RSS ${mb(exported.peakRss)} MB`,
      unit: 'rows/s',
      service: ROWS / exported.seconds,
      raw: (copy.result.rows - 1) / copy.seconds,
      rawName: 'COPY (SELECT …) TO STDOUT of the same rows',
      goal: 0.3,
      p99ms: null,
    }),
  ];
  process.stdout.write(out.join('\n') + '\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
