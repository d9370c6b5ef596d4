/*
 * Contact import benchmark (decisions.md 43): a CSV of N rows (default 100,000) goes through the
 * real use cases in a child process — POST /uploads' UploadIntake (parse, COPY into upload_rows),
 * then CampaignEditing.create with uploadId (E.164, COPY into the staging table, one INSERT …
 * SELECT into the campaign's contacts) — next to the minimal baseline measured in the same run: a
 * raw `COPY … FROM STDIN` of the same file into a bare table of four text columns (best of two, one
 * before and one after the service, so the load of a shared machine cannot flatter the ratio).
 *
 *   npm run bench:import                        # 100,000 rows
 *   npm run bench:import -- --rows 1000000      # the memory check: peak RSS of the importing process
 *   BENCH_IMPORT_HEAP_MB=256 npm run bench:import -- --rows 1000000   # the same under a heap cap
 *
 * Peak RSS is the child's `process.resourceUsage().maxRSS`: the whole importing process (Nest, the
 * file buffer, parsing, staging), not a sample. Prints a table and BENCH_JSON lines.
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_bench), created
 * and migrated when missing. The bench deletes what it created. Not part of `npm test`.
 */
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { createReadStream, createWriteStream, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CampaignEditing, CampaignsCoreModule, UploadIntake } from '@outreach/campaigns';
import { loadConfig, PlatformModule, runMigrations } from '@outreach/platform';
import { WorkspaceAdministration, WorkspacesCoreModule } from '@outreach/workspaces';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { benchJsonLine, measuredRow } from './bench-load';
import { argument, serviceMigrations } from './bench-support';

const ROWS = argument('rows', process.env.BENCH_ROWS ?? '100000');
const GOAL_RATIO = 0.25;
const GOAL_RSS_MB = 300;
process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench';
process.env.LOG_LEVEL = 'silent';
process.env.DB_QUERY_TIMEOUT_MS = '600000';

@Module({
  imports: [PlatformModule.forRoot({ role: 'cli', migrations: serviceMigrations() }), WorkspacesCoreModule, CampaignsCoreModule],
})
class BenchModule {}

interface ChildResult {
  /** RSS of the importing process once the app is up, before the file is read. */
  startRssMb: number;
  uploadSeconds: number;
  importSeconds: number;
  peakRssMb: number;
  summary: unknown;
}

/** N distinct valid US numbers written the ways people write them, plus a name, a city and a plan, written to a file. */
async function writeCsv(path: string, rows: number): Promise<void> {
  const cities = ['Austin', 'Boston', 'Chicago', 'Denver', 'Seattle'];
  async function* lines(): AsyncIterable<string> {
    let chunk = 'name,phone,city,plan\n';
    for (let i = 0; i < rows; i++) {
      const exchange = 200 + Math.floor(i / 10000);
      const line = String(i % 10000).padStart(4, '0');
      const phone = i % 3 === 0 ? `+1415${exchange}${line}` : i % 3 === 1 ? `(415) ${exchange}-${line}` : `415 ${exchange} ${line}`;
      chunk += `Contact ${i},"${phone}",${cities[i % cities.length]},${i % 2 ? 'gold' : 'silver'}\n`;
      if (chunk.length > 256 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    yield chunk;
  }
  await pipeline(lines, createWriteStream(path));
}

/** The minimal baseline: the file streamed into `COPY … FROM STDIN` of a bare table. */
async function rawCopy(path: string): Promise<number> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP TABLE IF EXISTS bench_raw_copy`);
    await client.query(`CREATE TABLE bench_raw_copy (name text, phone text, city text, plan text)`);
    const started = process.hrtime.bigint();
    await pipeline(createReadStream(path), client.query(copyFrom(`COPY bench_raw_copy FROM STDIN WITH (FORMAT csv, HEADER true)`)));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const copied = Number((await client.query(`SELECT count(*) AS n FROM bench_raw_copy`)).rows[0].n);
    if (copied !== ROWS) throw new Error(`raw COPY stored ${copied} rows, expected ${ROWS}`);
    return seconds;
  } finally {
    await client.query(`DROP TABLE IF EXISTS bench_raw_copy`);
    await client.end();
  }
}

/** The service's import, in this (child) process: upload, then a campaign created from it. */
async function child(path: string): Promise<void> {
  const app = await NestFactory.createApplicationContext(BenchModule, { logger: false, abortOnError: false });
  const dataSource = app.get(DataSource);
  const { workspace } = await app.get(WorkspaceAdministration).create({ name: `bench ${new Date().toISOString()}` });
  try {
    const startRssMb = process.memoryUsage().rss / 1024 / 1024;
    let started = process.hrtime.bigint();
    const buffer = readFileSync(path); // what multer's memory storage hands the route
    const upload = await app.get(UploadIntake).intake(workspace.id, { buffer, fileName: 'bench.csv', mimeType: 'text/csv' });
    const uploadSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    started = process.hrtime.bigint();
    const imported = await app.get(CampaignEditing).create(workspace.id, {
      name: `bench ${ROWS}`,
      channel: 'VOICE',
      source: 'CSV',
      uploadId: upload.uploadId,
      phoneColumn: 'phone',
      countryCode: '+1',
    });
    const importSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (imported.campaign.contactCount !== ROWS) throw new Error(`expected ${ROWS} contacts, imported ${imported.campaign.contactCount}`);
    const result: ChildResult = { startRssMb, uploadSeconds, importSeconds, peakRssMb: process.resourceUsage().maxRSS / 1024, summary: imported.import };
    await new Promise<void>((resolve) => process.send!(result, () => resolve()));
  } finally {
    await dataSource.query(`DELETE FROM campaigns WHERE workspace_id = $1`, [workspace.id]);
    await dataSource.query(`DELETE FROM uploads WHERE workspace_id = $1`, [workspace.id]);
    await app.close();
  }
}

function runChild(path: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    let result: ChildResult | null = null;
    // BENCH_IMPORT_HEAP_MB caps the importing process's heap (as the worker runs with 256: decisions.md 26.12).
    const heap = process.env.BENCH_IMPORT_HEAP_MB ? [`--max-old-space-size=${Number(process.env.BENCH_IMPORT_HEAP_MB)}`] : [];
    const proc = fork(__filename, ['--child', path, '--rows', String(ROWS)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [...process.execArgv, ...heap],
    });
    proc.on('message', (message) => (result = message as ChildResult));
    proc.on('error', reject);
    proc.on('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`the importing process exited with ${code}`))));
  });
}

const rate = (seconds: number) => Math.round(ROWS / seconds);
const fmt = (n: number) => n.toLocaleString('en-US');

function benchJson(path: string, service: number, raw: number, goal: number | null, extra: Record<string, unknown> = {}): string {
  const rawName = 'COPY FROM STDIN of the same CSV into a bare 4-text-column table';
  return benchJsonLine(measuredRow({ bench: 'bench:import', path, unit: 'rows/s', service, raw, rawName, goal, p99ms: null }), extra);
}

async function main(): Promise<void> {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) {
    await child(process.argv[childAt + 1]);
    process.exit(0);
  }

  await runMigrations(loadConfig(), serviceMigrations()); // creates the database when missing
  const path = join(tmpdir(), `bench-import-${process.pid}.csv`);
  try {
    await writeCsv(path, ROWS);
    const rawBefore = await rawCopy(path);
    const service = await runChild(path);
    const rawAfter = await rawCopy(path);
    const raw = Math.min(rawBefore, rawAfter);
    const pipelineSeconds = service.uploadSeconds + service.importSeconds;

    const rows: Array<[string, number, number]> = [
      ['upload: parse + COPY into upload_rows', service.uploadSeconds, service.peakRssMb],
      ['import: E.164 + COPY stage + INSERT…SELECT', service.importSeconds, service.peakRssMb],
      ['service: file → contacts', pipelineSeconds, service.peakRssMb],
      ['raw COPY (best of 2)', raw, NaN],
    ];
    const ratio = rate(pipelineSeconds) / rate(raw);
    const out = [
      `campaign import benchmark: ${fmt(ROWS)} rows, ${(statSync(path).size / 1024 / 1024).toFixed(1)} MB CSV, node ${process.version} (raw COPY ${rawBefore.toFixed(2)} s before, ${rawAfter.toFixed(2)} s after)`,
      '',
      `${'phase'.padEnd(44)}${'seconds'.padStart(9)}${'rows/s'.padStart(12)}${'peak RSS MB'.padStart(13)}`,
      ...rows.map(([a, s, m]) => `${a.padEnd(44)}${s.toFixed(2).padStart(9)}${fmt(rate(s)).padStart(12)}${(Number.isNaN(m) ? '' : m.toFixed(0)).padStart(13)}`),
      '',
      `service / raw COPY: ${ratio.toFixed(3)} (goal ≥ ${GOAL_RATIO}) ${ratio >= GOAL_RATIO ? 'met' : 'NOT met'}`,
      `peak RSS of the importing process: ${service.peakRssMb.toFixed(0)} MB (goal < ${GOAL_RSS_MB} MB at 1,000,000 rows) ${service.peakRssMb < GOAL_RSS_MB ? 'under' : 'OVER'}; ${service.startRssMb.toFixed(0)} MB with the app up before the file was read (+${(service.peakRssMb - service.startRssMb).toFixed(0)} MB)`,
      `summary: ${JSON.stringify(service.summary)}`,
      benchJson('import: CSV file → contacts (upload + import)', rate(pipelineSeconds), rate(raw), GOAL_RATIO, { rows: ROWS, peakRssMb: Math.round(service.peakRssMb), startRssMb: Math.round(service.startRssMb) }),
      benchJson('import phase 1: upload (parse + COPY into upload_rows)', rate(service.uploadSeconds), rate(raw), null, { rows: ROWS }),
      benchJson('import phase 2: E.164 + staging COPY + INSERT…SELECT', rate(service.importSeconds), rate(raw), null, { rows: ROWS }),
    ];
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    rmSync(path, { force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
