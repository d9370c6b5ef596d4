// Issue 13's SIGKILL drill for journey runs (decisions.md 37.16): the 200-lead drill journey
// (journey-drill-harness.ts) run by a real worker process that is killed with SIGKILL twice while
// calls and step jobs are in flight, each time replaced by a fresh process. Counted at the
// providers: every lead is called once and messaged once; every run ends DONE with each step once,
// and the campaign completes.
import { ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import { waitFor } from '../engine/engine-harness';
import { TestApp } from '../support/test-app';
import { killProcess, spawnWorker } from '../support/worker-process';
import { DRILL_WORKER_ENV, JourneyDrill, LEADS } from './journey-drill-harness';

const KILLS = 2;

describe('journey runs under a worker killed mid-run', () => {
  let t: TestApp;
  let worker: ChildProcess | null = null;
  let redis: Redis;
  let drill: JourneyDrill;

  const startWorker = async () => {
    worker = await spawnWorker(DRILL_WORKER_ENV);
  };

  beforeAll(async () => {
    t = await TestApp.create(); // real clock: the worker processes use the system clock
    redis = new Redis(process.env.REDIS_URL!);
    drill = await JourneyDrill.seed(t, redis);
  }, 300_000);
  afterAll(async () => {
    await killProcess(worker, 'SIGTERM');
    redis?.disconnect();
    await t?.close();
  });

  it('SIGKILL twice with calls and steps in flight, then a fresh worker: every run DONE, every lead called once and messaged once', async () => {
    await startWorker();
    await drill.start();
    for (let kill = 1; kill <= KILLS; kill++) {
      // Kill while the journey is under way: calls on the lines, step jobs queued.
      const target = Math.round((LEADS * kill) / (KILLS + 2));
      await waitFor(`${target} runs done (kill ${kill})`, () => drill.runsDone(), (n) => n >= target, 120_000);
      await killProcess(worker, 'SIGKILL');
      worker = null;
      const inFlight = await drill.runsNotFinal();
      process.stdout.write(`journey drill kill ${kill}: ${inFlight} runs not final\n`);
      expect(inFlight).toBeGreaterThan(0); // the kill did find work in flight
      await startWorker();
    }
    await drill.verify('worker-sigkill-mid-journey');
  }, 420_000);
});
