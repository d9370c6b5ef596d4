/*
 * Lead push and result read benchmark (issue 19): autocannon at 50 connections against the real
 * API process (POST /v1/campaigns/{id}/leads with a new idempotency key and phone per request, and
 * GET /v1/results/{id}), beside two baselines, each in a process of its own, in alternating runs
 * (service, raw minimum, same SQL; BENCH_ROUNDS rounds):
 *   - the minimal raw baseline (bench/baselines/raw-server.ts): node:http + pg, one statement
 *     writing the idempotency row with its response, the lead and the outbox row; a primary-key read;
 *   - the same-SQL baseline (bench/baselines/same-sql-server.ts): node:http + pg running the SQL
 *     the service ran when issue 19 was filed (key lookup, push transaction, API-log insert);
 *   - the Nest minimum (bench/baselines/nest-minimum.ts): the raw baseline's statements served by
 *     NestJS on Express and nothing else, the ceiling of the service's stack (decisions.md 45.10).
 * Ratios are service / raw minimum (goals: push ≥ 0.6 with p99 ≤ 100 ms, result GET ≥ 0.5).
 *
 *   npm run bench:results                        # 10 s per phase, 2 rounds
 *   npm run bench:results -- --seconds 30        # longer phases (or BENCH_SECONDS, BENCH_ROUNDS)
 *   BENCH_SMOKE=1 npm run bench:results          # 2 s, 1 round: does it still run?
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/outreach_bench_results),
 * created and migrated when missing; Redis as REDIS_URL. Not part of `npm test`.
 */
import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { nextPhone, phoneSerial, seedApi } from './api-seed';
import { freePort, load, LoadResult, median, printBenchJson, SMOKE, spawnApi, spawnBaseline, stop } from './bench-load';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

const SECONDS = Number(argument('seconds', process.env.BENCH_SECONDS ?? (SMOKE ? '2' : '10')));
const ROUNDS = Number(argument('rounds', process.env.BENCH_ROUNDS ?? (SMOKE ? '1' : '2')));
const CONNECTIONS = 50;
const WARMUP_SECONDS = SMOKE ? 1 : 3;
if (!Number.isInteger(SECONDS) || SECONDS < 1) throw new Error('--seconds must be a positive whole number');
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--rounds must be a positive whole number');
process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/outreach_bench_results';
process.env.REDIS_PREFIX = process.env.REDIS_PREFIX ?? 'outreach_bench_results';
process.env.LOG_LEVEL = 'silent';
process.env.RATE_LIMIT_PER_MINUTE = '10000000';
process.env.DB_QUERY_TIMEOUT_MS = process.env.DB_QUERY_TIMEOUT_MS ?? '5000';
process.env.DB_CONNECT_TIMEOUT_MS = process.env.DB_CONNECT_TIMEOUT_MS ?? '5000';
const POOL_SIZE = Number(process.env.DB_POOL_SIZE ?? '10');

// ---- the run -----------------------------------------------------------------------------

type Target = 'service' | 'raw' | 'same SQL' | 'Nest minimum';
const TARGETS: Target[] = ['service', 'raw', 'same SQL', 'Nest minimum'];

async function main(): Promise<void> {
  const s = await seedApi();

  const env = {
    DATABASE_URL: process.env.DATABASE_URL!,
    REDIS_PREFIX: process.env.REDIS_PREFIX!,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE!,
    DB_POOL_SIZE: String(POOL_SIZE),
  };
  const children: ChildProcess[] = [];
  try {
    const api = await spawnApi(1, await freePort(), env);
    children.push(api.child);
    const raw = await spawnBaseline('raw', { ...env, BENCH_RAW_ENVELOPE: JSON.stringify(s.envelope) });
    children.push(raw.child);
    const same = await spawnBaseline('same-sql', env);
    children.push(same.child);
    const nest = await spawnBaseline('nest', { ...env, BENCH_RAW_ENVELOPE: JSON.stringify(s.envelope) });
    children.push(nest.child);
    console.log(
      `results bench: ${CONNECTIONS} connections, ${SECONDS} s per phase, ${ROUNDS} round(s) alternating service / raw / same SQL / Nest minimum, ` +
        `each server its own process with a pool of ${POOL_SIZE}, database ${new URL(process.env.DATABASE_URL!).pathname.slice(1)}, node ${process.version}`,
    );
    const auth = { authorization: `Bearer ${s.key}` };
    const lead = (tag: string, area: number) => () => ({ idempotencyKey: `${tag}-${Date.now()}-${phoneSerial()}`, phone: nextPhone(area), name: 'Bench', fields: { plan: 'pro', seats: 3 } });
    const push: Record<Target, (seconds?: number) => Promise<LoadResult>> = {
      service: (seconds = SECONDS) => load({ url: api.url, connections: CONNECTIONS, seconds, headers: auth, method: 'POST', path: `/v1/campaigns/${s.apiCampaign}/leads`, body: lead('api', 415) }),
      raw: (seconds = SECONDS) => load({ url: raw.url, connections: CONNECTIONS, seconds, method: 'POST', path: '/leads', body: () => ({ campaignId: raw.campaignId, ...lead('raw', 510)() }) }),
      'same SQL': (seconds = SECONDS) => load({ url: same.url, connections: CONNECTIONS, seconds, headers: auth, method: 'POST', path: `/v1/campaigns/${s.rawCampaign}/leads`, body: lead('same', 628) }),
      'Nest minimum': (seconds = SECONDS) => load({ url: nest.url, connections: CONNECTIONS, seconds, method: 'POST', path: '/leads', body: () => ({ campaignId: nest.campaignId, ...lead('nest', 718)() }) }),
    };
    const read: Record<Target, (seconds?: number) => Promise<LoadResult>> = {
      service: (seconds = SECONDS) => load({ url: api.url, connections: CONNECTIONS, seconds, headers: auth, method: 'GET', path: `/v1/results/${s.resultId}` }),
      raw: (seconds = SECONDS) => load({ url: raw.url, connections: CONNECTIONS, seconds, method: 'GET', path: `/results/${raw.resultId}` }),
      'same SQL': (seconds = SECONDS) => load({ url: same.url, connections: CONNECTIONS, seconds, headers: auth, method: 'GET', path: `/v1/results/${s.resultId}` }),
      'Nest minimum': (seconds = SECONDS) => load({ url: nest.url, connections: CONNECTIONS, seconds, method: 'GET', path: `/results/${nest.resultId}` }),
    };
    const measured: Record<'push' | 'read', Record<Target, LoadResult[]>> = {
      push: { service: [], raw: [], 'same SQL': [], 'Nest minimum': [] },
      read: { service: [], raw: [], 'same SQL': [], 'Nest minimum': [] },
    };
    // Warm-up (not counted): the first requests of a fresh process pay for JIT and lazy set-up.
    for (const target of TARGETS) {
      await push[target](WARMUP_SECONDS);
      await read[target](WARMUP_SECONDS);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of TARGETS) measured.push[target].push(await push[target]());
      for (const target of TARGETS) measured.read[target].push(await read[target]());
    }

    const f = (x: number, d = 1) => x.toFixed(d).padStart(10);
    console.log(`\n${'phase (median of rounds)'.padEnd(44)}${'req/s'.padStart(10)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'bad'.padStart(10)}${'rounds req/s'.padStart(24)}`);
    const rows = [
      ['POST /v1/campaigns/{id}/leads', 'push', 0.6, 100],
      ['GET /v1/results/{id}', 'read', 0.5, null],
    ] as const;
    for (const [label, kind, goal, p99Goal] of rows) {
      const m = (t: Target) => ({
        rps: median(measured[kind][t].map((r) => r.rps)),
        p50: median(measured[kind][t].map((r) => r.p50)),
        p99: median(measured[kind][t].map((r) => r.p99)),
        bad: measured[kind][t].reduce((n, r) => n + r.bad, 0),
        all: measured[kind][t].map((r) => Math.round(r.rps)).join(' / '),
      });
      for (const t of TARGETS) {
        const r = m(t);
        console.log(`${`${label} (${t})`.padEnd(44)}${f(r.rps)}${f(r.p50)}${f(r.p99)}${String(r.bad).padStart(10)}${r.all.padStart(24)}`);
      }
      const service = m('service');
      const rawRow = m('raw');
      const sameRow = m('same SQL');
      console.log(`${'  service / raw minimum'.padEnd(44)}${f(service.rps / rawRow.rps, 2)}${f(service.p50 / Math.max(rawRow.p50, 0.01), 2)}${f(service.p99 / Math.max(rawRow.p99, 0.01), 2)}`);
      console.log(`${'  service / same SQL'.padEnd(44)}${f(service.rps / sameRow.rps, 2)}${f(service.p50 / Math.max(sameRow.p50, 0.01), 2)}${f(service.p99 / Math.max(sameRow.p99, 0.01), 2)}`);
      const nestRow = m('Nest minimum');
      console.log(`${'  service / Nest minimum'.padEnd(44)}${f(service.rps / nestRow.rps, 2)}${f(service.p50 / Math.max(nestRow.p50, 0.01), 2)}${f(service.p99 / Math.max(nestRow.p99, 0.01), 2)}`);
      console.log(`${'  Nest minimum / raw minimum (the ceiling)'.padEnd(44)}${f(nestRow.rps / rawRow.rps, 2)}${f(nestRow.p50 / Math.max(rawRow.p50, 0.01), 2)}${f(nestRow.p99 / Math.max(rawRow.p99, 0.01), 2)}`);
      if (service.bad > 0) console.log(`  WARNING: the service answered ${service.bad} requests with non-2xx, errors or timeouts`);
      printBenchJson({
        bench: 'bench:results',
        path: label,
        unit: 'req/s',
        service: service.rps,
        raw: rawRow.rps,
        rawName: kind === 'push' ? 'node:http + pg, one-statement push' : 'node:http + pg, primary-key read',
        ratio: service.rps / rawRow.rps,
        goal,
        p99ms: service.p99,
        p99GoalMs: p99Goal,
        sameSql: sameRow.rps,
        nestMinimum: nestRow.rps,
      });
    }
  } finally {
    for (const child of children.reverse()) await stop(child);
  }
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
