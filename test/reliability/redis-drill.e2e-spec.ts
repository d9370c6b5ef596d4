import { getQueueToken } from '@nestjs/bullmq';
import { EngineQueue } from '@outreach/engine';
import { SystemClock } from '@outreach/platform';
import { Queue } from 'bullmq';
import { CountingVoiceProvider, EngineProbe, runnableCampaign, sandboxFor, sandboxNumber, startCampaign, startWorker, waitFor } from '../engine/engine-harness';
import { reportDrill } from '../support/drill';
import { TcpProxy } from '../support/tcp-proxy';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';

/**
 * Fault drill (issue 7): Redis goes away while leads are pushed and while the campaign is being
 * dispatched. The API and the worker both reach Redis through a loopback proxy; the real Redis is
 * never touched. The drill ends with one count line: accepted, delivered, lost (must be 0),
 * duplicated side effects (must be 0).
 */
describe('drill: Redis down during lead pushes and dispatch', () => {
  const realUrl = process.env.REDIS_URL as string;
  let proxy: TcpProxy;
  let t: TestApp;
  let worker: WorkerApp;
  let ws: Seeded;
  let probe: EngineProbe;
  const voice = new CountingVoiceProvider(sandboxFor(new SystemClock()));
  let consoleErrors: jest.SpyInstance;

  beforeAll(async () => {
    proxy = await TcpProxy.forUrl(realUrl);
    process.env.REDIS_URL = proxy.rewrite(realUrl);
    t = await TestApp.create();
    await t.reset();
    worker = await startWorker({ voice });
    probe = new EngineProbe(t);
    // BullMQ prints every reconnect failure with console.error unless a Queue has an error
    // listener; the worker's queues have one (workerQueues), so the outage stays in the logs.
    consoleErrors = jest.spyOn(console, 'error');
  }, 60_000);

  afterAll(async () => {
    consoleErrors?.mockRestore();
    await proxy.setMode('pass');
    await worker?.close();
    await t?.close();
    await proxy?.close();
    process.env.REDIS_URL = realUrl;
  }, 60_000);

  it('accepts every lead while Redis is down, and after it is back delivers each exactly once', async () => {
    ws = await t.seed({ features: ['api_results'] });
    const { campaignId } = await runnableCampaign(t, ws, { phones: [], settings: { source: 'API' } });
    await startCampaign(t, ws, campaignId);
    const push = (i: number) =>
      t.http
        .post(`/v1/campaigns/${campaignId}/leads`)
        .set(bearer(ws.key))
        .send({ idempotencyKey: `drill-${i}`, phone: sandboxNumber(100 + i, 5 + (i % 5)) });

    // Phase 1: Redis refused while 15 leads are pushed (the API does not need Redis to accept).
    await proxy.setMode('refuse');
    const first = await Promise.all(Array.from({ length: 15 }, (_, i) => push(i)));
    expect(first.map((r) => r.status)).toEqual(Array(15).fill(201));
    await new Promise((r) => setTimeout(r, 500));
    expect(voice.total()).toBe(0); // nothing can be dispatched without the queue

    // Phase 2: Redis back; more leads arrive while dispatch runs, then Redis drops again mid-dispatch.
    await proxy.setMode('pass');
    const second = await Promise.all(Array.from({ length: 15 }, (_, i) => push(15 + i)));
    expect(second.map((r) => r.status)).toEqual(Array(15).fill(201));
    await waitFor('some calls placed', async () => voice.total(), (n) => n > 0, 30_000);
    await proxy.setMode('refuse');
    await new Promise((r) => setTimeout(r, 1000));
    await proxy.setMode('pass');

    // Replays of accepted leads (clients retrying) must not create anything.
    const replays = await Promise.all(Array.from({ length: 30 }, (_, i) => push(i)));
    expect(replays.map((r) => r.status)).toEqual(Array(30).fill(200));

    const accepted = 30;
    const delivered = await waitFor(
      'every lead final with its result',
      async () => {
        const [{ n }]: Array<{ n: number }> = await t.dataSource.query(
          `SELECT count(*)::int AS n FROM lead_results WHERE campaign_id = $1`,
          [campaignId],
        );
        return n;
      },
      (n) => n >= accepted,
      60_000,
    ).catch(async (error: Error) => {
      // What was still on its way, to tell a lost job from a slow one.
      const outbox = await t.dataSource.query(`SELECT queue, name, attempts, last_error FROM outbox WHERE dispatched_at IS NULL`);
      const contacts = await probe.statusCounts(campaignId);
      throw new Error(`${error.message}; contacts ${JSON.stringify(contacts)}; undispatched outbox ${JSON.stringify(outbox)}; dials ${voice.total()}`);
    });
    const contacts = await probe.contacts(campaignId);
    const calls = await probe.calls(campaignId);
    const duplicatedDials = [...voice.placed.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    const wallet = await probe.wallet(ws.workspaceId);
    const count = reportDrill('redis-down-during-push-and-dispatch', {
      accepted,
      delivered,
      lost: accepted - delivered,
      duplicated: duplicatedDials + Math.max(0, calls.length - accepted) + Math.max(0, wallet.debitCount - accepted),
    });
    expect(contacts).toHaveLength(accepted);
    expect(contacts.every((c) => c.status === 'COMPLETED')).toBe(true);
    expect(voice.maxConcurrentPerNumber).toBe(1);
    expect({ lost: count.lost, duplicated: count.duplicated }).toEqual({ lost: 0, duplicated: 0 });
    expect(wallet.credits - wallet.debits).toBe(wallet.balance);

    for (const name of [EngineQueue.Campaigns, EngineQueue.Attempts]) {
      expect(worker.get<Queue>(getQueueToken(name) as never).listenerCount('error')).toBeGreaterThan(0);
    }
    expect(consoleErrors).not.toHaveBeenCalled();
  }, 120_000);
});
