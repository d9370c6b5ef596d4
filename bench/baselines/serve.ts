/*
 * Child-process entry for a baseline server, so the load generator never shares its event loop:
 *   node dist/bench/baselines/serve.js raw        # the minimal raw baseline (raw-server.ts)
 *   node dist/bench/baselines/serve.js same-sql   # the same-SQL baseline (same-sql-server.ts)
 *   node dist/bench/baselines/serve.js nest       # the raw baseline's work served by Nest + Express (nest-minimum.ts)
 * Env: DATABASE_URL (else BENCH_DATABASE_URL, else outreach_bench on 127.0.0.1), DB_POOL_SIZE (10), BENCH_RAW_ENVELOPE (JSON the raw GET returns).
 * Prints one line `READY {"url":…,"resultId":…,"campaignId":…}`; SIGTERM closes it.
 */
import { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { startNestMinimum } from './nest-minimum';
import { startRawBaseline } from './raw-server';
import { sameSqlServer } from './same-sql-server';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench';
  const poolSize = Number(process.env.DB_POOL_SIZE ?? '10');
  let close: () => Promise<void>;
  if (process.argv[2] === 'raw') {
    const envelope = process.env.BENCH_RAW_ENVELOPE ? (JSON.parse(process.env.BENCH_RAW_ENVELOPE) as unknown) : undefined;
    const raw = await startRawBaseline(databaseUrl, { poolSize, envelope });
    process.stdout.write(`READY ${JSON.stringify({ url: raw.url, resultId: raw.resultId, campaignId: raw.campaignId })}\n`);
    close = raw.close;
  } else if (process.argv[2] === 'nest') {
    const envelope = process.env.BENCH_RAW_ENVELOPE ? (JSON.parse(process.env.BENCH_RAW_ENVELOPE) as unknown) : undefined;
    const nest = await startNestMinimum(databaseUrl, { poolSize, envelope });
    process.stdout.write(`READY ${JSON.stringify({ url: nest.url, resultId: nest.resultId, campaignId: nest.campaignId })}\n`);
    close = nest.close;
  } else if (process.argv[2] === 'same-sql') {
    const pool = new Pool({ connectionString: databaseUrl, max: poolSize });
    const server = sameSqlServer(pool);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.stdout.write(`READY ${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
    close = async () => {
      server.closeAllConnections();
      server.close();
      await pool.end();
    };
  } else {
    throw new Error('usage: serve.js raw|same-sql|nest');
  }
  process.once('SIGTERM', () => void close().finally(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
