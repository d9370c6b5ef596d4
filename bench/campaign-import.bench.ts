/*
 * Contact import benchmark: a CSV of N rows (default 100,000) goes through the real use cases
 * (POST /uploads' UploadIntake: parse + store; then CampaignEditing.create with uploadId:
 * normalise to E.164, de-duplicate, insert contacts), timed phase by phase with the peak RSS,
 * next to a raw `COPY … FROM STDIN` of the same CSV into a plain table in the same run.
 *
 *   npm run bench:import                      # 100,000 rows
 *   npm run bench:import -- --rows 250000     # another size
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_bench), created
 * and migrated when missing. The bench deletes what it created. Not part of `npm test`.
 */
import 'reflect-metadata';
import { serviceMigrations } from './bench-support';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CampaignEditing, CampaignsCoreModule, UploadIntake } from '@outreach/campaigns';
import { loadConfig, PlatformModule, runMigrations } from '@outreach/platform';
import { WorkspaceAdministration, WorkspacesCoreModule } from '@outreach/workspaces';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

const ROWS = Number(argument('rows', process.env.BENCH_ROWS ?? '100000'));
if (!Number.isInteger(ROWS) || ROWS < 1) throw new Error('--rows must be a positive whole number');
process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench';
process.env.LOG_LEVEL = 'silent';
process.env.DB_QUERY_TIMEOUT_MS = '600000';

@Module({
  imports: [PlatformModule.forRoot({ role: 'cli', migrations: serviceMigrations() }), WorkspacesCoreModule, CampaignsCoreModule],
})
class BenchModule {}

/** Samples the resident set size while a phase runs. */
class RssSampler {
  peak = process.memoryUsage().rss;
  private timer = setInterval(() => this.sample(), 10);

  sample(): void {
    this.peak = Math.max(this.peak, process.memoryUsage().rss);
  }

  stop(): number {
    this.sample();
    clearInterval(this.timer);
    return this.peak;
  }
}

async function phase<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; peakRss: number }> {
  const sampler = new RssSampler();
  const started = process.hrtime.bigint();
  const result = await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { result, seconds, peakRss: sampler.stop() };
}

/** N distinct valid US numbers written the ways people write them, plus a name, a city and a plan. */
function makeCsv(rows: number): Buffer {
  const cities = ['Austin', 'Boston', 'Chicago', 'Denver', 'Seattle'];
  const lines = ['name,phone,city,plan'];
  for (let i = 0; i < rows; i++) {
    const exchange = 200 + Math.floor(i / 10000);
    const line = String(i % 10000).padStart(4, '0');
    const phone = i % 3 === 0 ? `+1415${exchange}${line}` : i % 3 === 1 ? `(415) ${exchange}-${line}` : `415 ${exchange} ${line}`;
    lines.push(`Contact ${i},"${phone}",${cities[i % cities.length]},${i % 2 ? 'gold' : 'silver'}`);
  }
  return Buffer.from(lines.join('\n') + '\n');
}

/** `COPY … FROM STDIN` with node-postgres alone: a minimal Submittable that streams the chunks. */
class CopyFromStdin {
  readonly done: Promise<void>;
  private settle!: (error?: Error) => void;
  private error: Error | undefined;

  constructor(
    private readonly text: string,
    private readonly data: Buffer,
  ) {
    this.done = new Promise((resolve, reject) => (this.settle = (e) => (e ? reject(e) : resolve())));
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: { sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void }): void {
    for (let offset = 0; offset < this.data.length; offset += 64 * 1024) connection.sendCopyFromChunk(this.data.subarray(offset, offset + 64 * 1024));
    connection.endCopyFrom();
  }

  handleError(error: Error): void {
    this.error = error;
  }

  handleReadyForQuery(): void {
    this.settle(this.error);
  }

  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const rate = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString('en-US');

async function main(): Promise<void> {
  await runMigrations(loadConfig(), serviceMigrations()); // creates the database when missing
  const app = await NestFactory.createApplicationContext(BenchModule, { logger: false, abortOnError: false });
  const dataSource = app.get(DataSource);
  const csv = makeCsv(ROWS);
  const baseline = process.memoryUsage().rss;

  const { workspace } = await app.get(WorkspaceAdministration).create({ name: `bench ${new Date().toISOString()}` });
  const upload = await phase(() =>
    app.get(UploadIntake).intake(workspace.id, { buffer: csv, fileName: 'bench.csv', mimeType: 'text/csv' }),
  );
  const imported = await phase(() =>
    app.get(CampaignEditing).create(workspace.id, {
      name: `bench ${ROWS}`,
      channel: 'VOICE',
      source: 'CSV',
      uploadId: upload.result.uploadId,
      phoneColumn: 'phone',
      countryCode: '+1',
    }),
  );
  if (imported.result.campaign.contactCount !== ROWS) {
    throw new Error(`expected ${ROWS} contacts, imported ${imported.result.campaign.contactCount}`);
  }

  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(`CREATE TABLE IF NOT EXISTS bench_raw_copy (name text, phone text, city text, plan text)`);
  await client.query(`TRUNCATE bench_raw_copy`);
  const copy = await phase(async () => {
    const submittable = new CopyFromStdin(`COPY bench_raw_copy FROM STDIN WITH (FORMAT csv, HEADER true)`, csv);
    void client.query(submittable as never);
    await submittable.done;
  });
  const copied = Number((await client.query(`SELECT count(*) AS n FROM bench_raw_copy`)).rows[0].n);
  await client.query(`DROP TABLE bench_raw_copy`);
  await client.end();

  await dataSource.query(`DELETE FROM campaigns WHERE workspace_id = $1`, [workspace.id]);
  await dataSource.query(`DELETE FROM uploads WHERE workspace_id = $1`, [workspace.id]);
  await app.close();

  const pipeline = upload.seconds + imported.seconds;
  const peak = Math.max(upload.peakRss, imported.peakRss);
  const rows: Array<[string, string, string, string]> = [
    ['upload: parse + store rows', upload.seconds.toFixed(2), rate(ROWS, upload.seconds), mb(upload.peakRss)],
    ['import: E.164 + dedupe + insert', imported.seconds.toFixed(2), rate(ROWS, imported.seconds), mb(imported.peakRss)],
    ['pipeline total', pipeline.toFixed(2), rate(ROWS, pipeline), mb(peak)],
    [`raw COPY (${copied.toLocaleString('en-US')} rows)`, copy.seconds.toFixed(2), rate(ROWS, copy.seconds), mb(copy.peakRss)],
  ];
  const out = [
    `campaign import benchmark: ${ROWS.toLocaleString('en-US')} rows, ${(csv.length / 1024 / 1024).toFixed(1)} MB CSV, node ${process.version}`,
    '',
    `${'phase'.padEnd(34)}${'seconds'.padStart(9)}${'rows/s'.padStart(12)}${'peak RSS MB'.padStart(13)}`,
    ...rows.map(([a, b, c, d]) => `${a.padEnd(34)}${b.padStart(9)}${c.padStart(12)}${d.padStart(13)}`),
    '',
    `pipeline / raw COPY: ${(pipeline / copy.seconds).toFixed(1)}x the time`,
    `RSS: ${mb(baseline)} MB after generating the CSV, peak ${mb(peak)} MB (+${mb(peak - baseline)} MB)`,
    `summary: ${JSON.stringify(imported.result.import)}`,
  ];
  process.stdout.write(out.join('\n') + '\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
