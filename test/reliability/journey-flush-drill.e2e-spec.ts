// Issue 13's Redis FLUSHALL drill for journey runs (decisions.md 37.17): the 200-lead drill journey
// (journey-drill-harness.ts) on a Redis of this file's own, flushed twice while calls, step jobs
// and waits are in flight; the worker process keeps running. Every queue, job, lock and delayed
// job is gone each time; the database is the record. The sandbox voice provider keeps its call
// records (its side of the calls) on the shared Redis, which nobody flushes, as a real provider
// keeps its call log. Counted at the providers: every lead called once and messaged once, every run
// DONE with each step once, the campaign completes.
import { ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import { waitFor } from '../engine/engine-harness';
import { PrivateRedis } from '../support/private-redis';
import { TestApp } from '../support/test-app';
import { killProcess, spawnWorker } from '../support/worker-process';
import { DRILL_WORKER_ENV, JourneyDrill, LEADS } from './journey-drill-harness';

const FLUSHES = 2;

describe('journey runs across a Redis FLUSHALL', () => {
  let t: TestApp;
  let worker: ChildProcess | null = null;
  let ours: PrivateRedis;
  let sandboxRedis: Redis;
  let drill: JourneyDrill;
  const sharedUrl = process.env.REDIS_URL!;

  beforeAll(async () => {
    ours = await PrivateRedis.start();
    // The API and the worker use the private Redis; the sandbox provider's records stay on the shared one.
    process.env.REDIS_URL = ours.url;
    process.env.SANDBOX_VOICE_REDIS_URL = sharedUrl;
    try {
      t = await TestApp.create(); // real clock: the worker process uses the system clock
    } finally {
      process.env.REDIS_URL = sharedUrl;
      delete process.env.SANDBOX_VOICE_REDIS_URL;
    }
    sandboxRedis = new Redis(sharedUrl);
    drill = await JourneyDrill.seed(t, sandboxRedis);
  }, 300_000);
  afterAll(async () => {
    await killProcess(worker, 'SIGTERM');
    sandboxRedis?.disconnect();
    await t?.close();
    await ours?.stop();
  });

  it('FLUSHALL twice with calls, steps and queues in flight: every run DONE, every lead called once and messaged once', async () => {
    worker = await spawnWorker({
      ...DRILL_WORKER_ENV,
      REDIS_URL: ours.url,
      SANDBOX_VOICE_REDIS_URL: sharedUrl,
      // A run whose step job, or a call whose analysis job, the flush took gets it again after 2 s, not the default minute.
      WORKFLOW_RUN_IDLE_MS: '2000',
      CALL_ANALYSIS_IDLE_MS: '2000',
      // A claimed call whose attempt job the flush took is dialled after 2 s, not at claim + 600 s (decisions.md 16.30).
      ATTEMPT_IDLE_MS: '2000',
    });
    await drill.start();
    const probe = new Redis(ours.url);
    try {
      for (let flush = 1; flush <= FLUSHES; flush++) {
        const target = Math.round((LEADS * flush) / (FLUSHES + 2));
        await waitFor(`${target} runs done (flush ${flush})`, () => drill.runsDone(), (n) => n >= target, 120_000);
        const keys = await probe.dbsize();
        await ours.flushAll();
        const inFlight = await drill.runsNotFinal();
        process.stdout.write(`journey flush drill flush ${flush}: ${keys} Redis keys flushed, ${inFlight} runs not final\n`);
        expect(keys).toBeGreaterThan(0); // the queues had state to lose
        expect(inFlight).toBeGreaterThan(0); // the flush did find work in flight
      }
    } finally {
      probe.disconnect();
    }
    await drill.verify('redis-flushall-mid-journey');
  }, 420_000);
});
