// A real worker process (node dist/apps/worker/src/main.js) killed with SIGKILL while calls are in
// flight, then restarted: every contact ends with exactly one final outcome, nobody is dialled
// twice, and the reaper recovers the attempts the dead worker held from the provider's record of
// their calls (run here with a clock past their deadline: claim + maxCallDurationSecs +
// REAPER_GRACE_SECONDS).
import { ChildProcess } from 'node:child_process';
import { Module } from '@nestjs/common';
import { CallStatus, LIVE_CALL_STATUSES } from '@outreach/calls';
import { EngineCoreModule, NO_PROVIDER_RECORD, ReapStuckAttempts } from '@outreach/engine';
import { Clock, FixedClock, PlatformModule } from '@outreach/platform';
import { serviceMigrations } from '../support/service-modules';
import { extraOccurrences, reportDrill } from '../support/drill';
import { Seeded, TestApp } from '../support/test-app';
import { WorkerApp } from '../support/worker-app';
import { killProcess, spawnWorker as spawnChild } from '../support/worker-process';
import { EngineProbe, runnableCampaign, sandboxNumber, startCampaign, waitFor } from './engine-harness';

const MAX_CALL_SECS = 60;
const GRACE_SECS = 120;
const CONTACTS = 40;
const LINES = 10;

/** The engine's use cases with the worker platform, but no processors: runs the reaper on demand. */
@Module({
  imports: [PlatformModule.forRoot({ role: 'worker', migrations: serviceMigrations() }), EngineCoreModule],
})
class ReaperOnly {}

const spawnWorker = () =>
  spawnChild({ SANDBOX_VOICE_LATENCY_MS: '400', DISPATCH_TICK_MS: '100', REAPER_GRACE_SECONDS: String(GRACE_SECS) });
const kill = killProcess;

describe('a worker killed mid-campaign', () => {
  let t: TestApp;
  let ws: Seeded;
  let first: ChildProcess | null = null;
  let second: ChildProcess | null = null;
  let reaperApp: WorkerApp | null = null;

  beforeAll(async () => {
    // dist/ is built once per jest run (test/support/global-setup.js).
    t = await TestApp.create(); // real clock: the child workers use the system clock
    await t.reset();
    ws = await t.seed({ concurrency: LINES });
  }, 300_000);
  afterAll(async () => {
    await kill(first, 'SIGKILL');
    await kill(second, 'SIGTERM');
    await reaperApp?.close();
    await t?.close();
  });

  it('SIGKILL with calls in flight, reaper, restart: every contact has exactly one final outcome', async () => {
    const phones = Array.from({ length: CONTACTS }, (_, i) => sandboxNumber(i, i % 10));
    const { campaignId } = await runnableCampaign(t, ws, {
      phones,
      agent: { maxCallDurationSecs: MAX_CALL_SECS },
      settings: { retryCount: 0 },
    });
    const probe = new EngineProbe(t);
    const callStates = async () => {
      const rows: Array<{ status: string; n: number }> = await t.dataSource.query(
        `SELECT status, count(*)::int AS n FROM calls WHERE campaign_id = $1 GROUP BY status`,
        [campaignId],
      );
      const by = Object.fromEntries(rows.map((r) => [r.status, r.n]));
      const inProgress = LIVE_CALL_STATUSES.reduce((n, status) => n + (by[status] ?? 0), 0);
      // A QUEUED call may not have reached the provider yet; past it, the provider has accepted it.
      return { inProgress, accepted: inProgress - (by.QUEUED ?? 0), finished: (by.ENDED ?? 0) + (by.FAILED ?? 0) };
    };

    first = await spawnWorker();
    await startCampaign(t, ws, campaignId, { reservedConcurrency: LINES });
    // Kill once some calls have finished and others are in flight (400 ms each) that the provider
    // has accepted: right after a wave of calls ends, the next wave can be all QUEUED (not yet
    // placed), and a kill then leaves nothing for the reaper to recover.
    await waitFor('accepted calls in flight after some finished', callStates, (s) => s.finished >= 8 && s.accepted >= 3, 30_000);
    await kill(first, 'SIGKILL');
    first = null;

    const stuck = (await probe.contacts(campaignId)).filter((c) => c.status === 'IN_PROGRESS');
    expect(stuck.length).toBeGreaterThan(0);
    const { inProgress: callsCutOff, accepted } = await callStates();
    expect(callsCutOff).toBeGreaterThan(0);
    expect(accepted).toBeGreaterThan(0);
    // The calls the dead worker placed go on at the provider and end there (400 ms each) while no
    // worker is alive to hear of it.
    await new Promise((r) => setTimeout(r, 500));

    // Before the deadline the reaper leaves them alone; past it, it takes every one back.
    reaperApp = await WorkerApp.create({
      root: ReaperOnly,
      configure: (b) => b.overrideProvider(Clock).useValue(new FixedClock(new Date(Date.now() + 10_000))),
    });
    expect(await reaperApp.get(ReapStuckAttempts).execute()).toEqual({ recovered: 0, reaped: 0, released: 0, waiting: 0 });
    await reaperApp.close();
    reaperApp = await WorkerApp.create({
      root: ReaperOnly,
      configure: (b) =>
        b.overrideProvider(Clock).useValue(new FixedClock(new Date(Date.now() + (MAX_CALL_SECS + GRACE_SECS + 5) * 1000))),
    });
    const report = await reaperApp.get(ReapStuckAttempts).execute();
    await reaperApp.close();
    reaperApp = null;
    // The reaper asks the provider (the sandbox's record in Redis outlived the worker): every call it
    // had accepted is settled with its real outcome; only one it never accepted would be failed.
    expect(report.recovered + report.reaped).toBe(callsCutOff);
    expect(report.recovered).toBeGreaterThan(0);
    expect(report.waiting).toBe(0);
    expect(report.recovered + report.reaped + report.released).toBe(stuck.length);

    second = await spawnWorker();
    await waitFor('the campaign to complete', () => probe.campaignStatus(campaignId), (s) => s === 'COMPLETED', 60_000);

    const contacts = await probe.contacts(campaignId);
    const calls = await probe.calls(campaignId);
    expect(calls.filter((c) => LIVE_CALL_STATUSES.includes(c.status as CallStatus))).toEqual([]);
    const reaped = calls.filter((c) => c.provider_disposition === NO_PROVIDER_RECORD);
    expect(reaped).toHaveLength(report.reaped);
    for (const [i, phone] of phones.entries()) {
      const contact = contacts.find((c) => c.phone === phone)!;
      const own = calls.filter((c) => c.to_number === phone);
      // Exactly one attempt and one call per contact (retryCount 0): nobody was dialled twice.
      expect({ phone, attempts: contact.attempts, calls: own.length }).toEqual({ phone, attempts: 1, calls: 1 });
      const [call] = own;
      expect(contact.last_outcome).toBe(call.outcome);
      const digit = i % 10;
      const expected = call.provider_disposition === NO_PROVIDER_RECORD || digit <= 3 ? 'FAILED' : 'COMPLETED';
      expect({ phone, status: contact.status }).toEqual({ phone, status: expected });
    }

    const answered = calls.filter((c) => ['voicemail', 'transferred', 'completed'].includes(c.outcome!));
    const wallet = await probe.wallet(ws.workspaceId);
    // A contact is delivered when it reached a final status with its one call; a duplicated side
    // effect is a second call to the same contact or a debit beyond one per answered call.
    const final = contacts.filter((c) => (c.status === 'COMPLETED' || c.status === 'FAILED') && calls.some((k) => k.contact_id === c.id));
    const count = reportDrill('worker-sigkill-mid-campaign', {
      accepted: CONTACTS,
      delivered: final.length,
      lost: CONTACTS - final.length,
      duplicated: extraOccurrences(calls.map((c) => c.contact_id)) + Math.max(0, wallet.debitCount - answered.length),
    });
    expect(count).toEqual({ accepted: CONTACTS, delivered: CONTACTS, lost: 0, duplicated: 0 });
    expect(wallet.debitCount).toBe(answered.length);
    expect(wallet.debits).toBe(answered.reduce((sum, c) => sum + Math.ceil(c.duration_ms! / 60_000) * 10, 0));
    expect(wallet.credits - wallet.debits).toBe(wallet.balance);
  }, 180_000);

  // Killed at each state a call can be in (QUEUED: the provider may or may not have it; RINGING;
  // IN_PROGRESS: answered). The calls last 3 s here so the kill can wait for the state it wants.
  it.each([
    ['QUEUED', 1],
    ['RINGING', 2],
    ['IN_PROGRESS', 3],
  ] as const)('SIGKILL with a call %s, restart without the reaper: the new worker takes the dead attempts back within seconds (lease) and settles them from the provider', async (killState, round) => {
    await kill(second, 'SIGTERM'); // the previous test's worker
    second = null;
    const ws = await t.seed({ concurrency: LINES }); // its own wallet
    const phones = Array.from({ length: CONTACTS }, (_, i) => sandboxNumber(100 * round + i, i % 10));
    const { campaignId } = await runnableCampaign(t, ws, {
      phones,
      agent: { maxCallDurationSecs: MAX_CALL_SECS },
      settings: { retryCount: 0 },
    });
    const probe = new EngineProbe(t);

    const inState = async () => {
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM calls WHERE campaign_id = $1 AND status = $2`, [campaignId, killState]);
      return n as number;
    };

    first = await spawnChild({ SANDBOX_VOICE_LATENCY_MS: '3000', DISPATCH_TICK_MS: '100', REAPER_GRACE_SECONDS: String(GRACE_SECS) });
    await startCampaign(t, ws, campaignId, { reservedConcurrency: LINES });
    await waitFor(`a call ${killState}`, inState, (n) => n >= 1, 30_000);
    await kill(first, 'SIGKILL');
    first = null;
    const killedAt = Date.now();
    const stuck = (await probe.contacts(campaignId)).filter((c) => c.status === 'IN_PROGRESS').map((c) => c.id);
    expect(stuck.length).toBeGreaterThan(0);
    // Slot truth at the moment of the crash (decisions.md 16.27): a contact holds a line exactly
    // while its attempt's call is live (QUEUED, DIALING, RINGING, IN_PROGRESS) or not yet written;
    // no ended call leaves its contact in flight, and no live call belongs to a settled contact.
    const held: Array<{ contact_status: string; call_status: string | null }> = await t.dataSource.query(
      `SELECT cc.status AS contact_status, c.status AS call_status
         FROM campaign_contacts cc LEFT JOIN calls c ON c.id = cc.current_call_id
        WHERE cc.campaign_id = $1 AND cc.status = 'IN_PROGRESS'`,
      [campaignId],
    );
    expect(held.filter((r) => r.call_status !== null && !LIVE_CALL_STATUSES.includes(r.call_status as CallStatus))).toEqual([]);
    const [{ orphans }] = await t.dataSource.query(
      `SELECT count(*)::int AS orphans FROM calls c JOIN campaign_contacts cc ON cc.id = c.contact_id
        WHERE c.campaign_id = $1 AND c.status = ANY($2) AND cc.status <> 'IN_PROGRESS'`,
      [campaignId, LIVE_CALL_STATUSES],
    );
    expect(orphans).toBe(0);
    const byState = held.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.call_status ?? 'not placed']: (acc[r.call_status ?? 'not placed'] ?? 0) + 1 }), {});
    process.stdout.write(`worker SIGKILL at ${killState}: lines held at the kill by call state ${JSON.stringify(byState)}\n`);

    second = await spawnChild({ SANDBOX_VOICE_LATENCY_MS: '3000', DISPATCH_TICK_MS: '100', REAPER_GRACE_SECONDS: String(GRACE_SECS) });
    // Every attempt the dead worker held is settled long before the reaper's deadline (60 s + 120 s).
    await waitFor(
      "the dead worker's attempts to be settled",
      async () => (await probe.contacts(campaignId)).filter((c) => stuck.includes(c.id) && c.status === 'IN_PROGRESS').length,
      (n) => n === 0,
      30_000,
    );
    const recoverySecs = (Date.now() - killedAt) / 1000;
    process.stdout.write(`worker SIGKILL at ${killState} + restart: the dead worker's ${stuck.length} attempts settled ${recoverySecs.toFixed(1)} s after the kill\n`);
    expect(recoverySecs).toBeLessThan(30);
    await waitFor('the campaign to complete', () => probe.campaignStatus(campaignId), (s) => s === 'COMPLETED', 60_000);

    const contacts = await probe.contacts(campaignId);
    const calls = await probe.calls(campaignId);
    expect(calls.filter((c) => c.provider_disposition === NO_PROVIDER_RECORD)).toEqual([]);
    for (const [i, phone] of phones.entries()) {
      const contact = contacts.find((c) => c.phone === phone)!;
      const own = calls.filter((c) => c.to_number === phone);
      expect({ phone, attempts: contact.attempts, calls: own.length }).toEqual({ phone, attempts: 1, calls: 1 });
      expect({ phone, status: contact.status }).toEqual({ phone, status: i % 10 <= 3 ? 'FAILED' : 'COMPLETED' });
    }
    const answered = calls.filter((c) => ['voicemail', 'transferred', 'completed'].includes(c.outcome!));
    expect((await probe.wallet(ws.workspaceId)).debitCount).toBe(answered.length);
  }, 180_000);
});
