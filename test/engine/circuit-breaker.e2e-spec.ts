import { readCampaign } from '../campaigns/campaign-helpers';
import { bearer, Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { EngineProbe, runnableCampaign, sandboxNumber, startCampaign, startWorker, waitFor } from './engine-harness';

/*
 * The circuit breaker (issue 17, item 3; decisions.md 16.26) through the real engine: a carrier that
 * fails 60 % of calls pauses the campaign with pauseReason circuit_open once a window of 10 settled
 * calls is full; nothing is lost; resuming starts a new window.
 */
const WINDOW = 10;
const LINES = 2;

describe('circuit breaker', () => {
  let t: TestApp;
  let ws: Seeded;
  let worker: WorkerApp | null = null;

  beforeAll(async () => {
    t = await TestApp.create();
    await t.reset();
    ws = await t.seed({ concurrency: LINES });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });

  it('a carrier failing 60 % of calls pauses the campaign within its window (circuit_open); a resume judges a new window', async () => {
    // Three of every five numbers end in 3: the sandbox's carrier failure.
    const phones = Array.from({ length: 40 }, (_, i) => sandboxNumber(i, i % 5 < 3 ? 3 : 7));
    const { campaignId } = await runnableCampaign(t, ws, {
      phones,
      settings: { retryCount: 0, circuitBreakerWindow: WINDOW, circuitBreakerFailurePercent: 50 },
    });
    const probe = new EngineProbe(t);
    worker = await startWorker();
    await startCampaign(t, ws, campaignId, { reservedConcurrency: LINES });

    await waitFor('the breaker to open', () => probe.campaignStatus(campaignId), (s) => s === 'PAUSED', 30_000);
    expect(await readCampaign(t, ws.key, campaignId)).toMatchObject({ status: 'PAUSED', pauseReason: 'circuit_open' });
    // It opened once the window was full, not long after: a failure is judged as it settles, and
    // calls end in any order, so a few more than the window may have been placed by then.
    const placedAtTrip = (await probe.calls(campaignId)).length;
    expect(placedAtTrip).toBeGreaterThanOrEqual(WINDOW);
    expect(placedAtTrip).toBeLessThan(2 * WINDOW);
    // Nothing is lost: every contact is either final with its call, or still waiting to be dialled.
    await waitFor('in-flight calls to finish', async () => (await probe.contacts(campaignId)).filter((c) => c.status === 'IN_PROGRESS').length, (n) => n === 0);
    const waiting = (await probe.contacts(campaignId)).filter((c) => c.status === 'PENDING').length;
    expect(waiting + (await probe.calls(campaignId)).length).toBe(phones.length);

    // A normal resume: the old failures no longer count, so it dials a whole new window before judging.
    const resumed = await t.http.post(`/campaigns/${campaignId}/resume`).set(bearer(ws.key)).send({});
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ status: 'RUNNING', pauseReason: null });
    await waitFor('the breaker to open again', () => probe.campaignStatus(campaignId), (s) => s === 'PAUSED', 30_000);
    const placedSinceResume = (await probe.calls(campaignId)).length - placedAtTrip;
    expect(placedSinceResume).toBeGreaterThanOrEqual(WINDOW);
  }, 90_000);
});
