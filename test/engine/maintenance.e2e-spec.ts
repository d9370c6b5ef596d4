// The engine's safety net runs on each worker's own timer: a RUNNING campaign whose dispatch
// wake-ups were all lost (Redis dropped them, or they were never enqueued) is dialled anyway
// within a few REAPER_INTERVAL_MS, without any job in BullMQ to start it.
process.env.REAPER_INTERVAL_MS = '300';

import { SystemClock } from '@outreach/platform';
import { Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { CountingVoiceProvider, EngineProbe, runnableCampaign, sandboxFor, sandboxNumber, startCampaign, startWorker, waitFor } from './engine-harness';

describe('engine maintenance (worker-local timer)', () => {
  let t: TestApp;
  let ws: Seeded;
  let worker: WorkerApp | null = null;
  const voice = new CountingVoiceProvider(sandboxFor(new SystemClock()));

  beforeAll(async () => {
    t = await TestApp.create();
    await t.reset();
    ws = await t.seed({ concurrency: 4 });
  }, 60_000);
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    delete process.env.REAPER_INTERVAL_MS;
  });

  it('dials a RUNNING campaign whose wake-ups were lost', async () => {
    const phones = Array.from({ length: 6 }, (_, i) => sandboxNumber(i, 5));
    const { campaignId } = await runnableCampaign(t, ws, { phones });
    await startCampaign(t, ws, campaignId);
    // Every job that start() asked for is lost before any worker saw it.
    await t.dataSource.query(`DELETE FROM outbox WHERE dispatched_at IS NULL`);

    worker = await startWorker({ voice });
    const probe = new EngineProbe(t);
    await waitFor('every contact completed', () => probe.statusCounts(campaignId), (s) => s.COMPLETED === phones.length, 20_000);
    expect(voice.total()).toBe(phones.length);
    expect([...voice.placed.values()].every((n) => n === 1)).toBe(true);
  }, 60_000);
});
