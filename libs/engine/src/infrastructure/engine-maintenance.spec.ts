import { AppConfig } from '@outreach/platform';
import { tickUntil } from '../../../platform/src/testing';
import { ReapStuckAttempts } from '../application/reap-stuck-attempts.use-case';
import { SweepLiveCalls } from '../application/sweep-live-calls.use-case';
import { EngineMaintenance } from './engine-maintenance';

describe('EngineMaintenance', () => {
  it('runs the reaper, the undialled-claim resume with ATTEMPT_IDLE_MS, the overdue message legs, and the sweep, on the reaper interval; the live-call sweep on its own timer', async () => {
    const steps: string[] = [];
    const idleTimes: number[] = [];
    const reaper = {
      execute: () => (steps.push('reap'), Promise.resolve({ recovered: 0, reaped: 0, released: 0, waiting: 0 })),
      resumeUndialled: (idleMs: number) => (steps.push('resume'), idleTimes.push(idleMs), Promise.resolve(3)),
      settleOverdueLegs: () => (steps.push('legs'), Promise.resolve(2)),
      sweep: () => (steps.push('sweep'), Promise.resolve(1)),
    } as unknown as ReapStuckAttempts;
    let liveCallSweeps = 0;
    const liveCalls = { everyMs: 7, execute: () => (liveCallSweeps++, Promise.resolve({ swept: true, asked: 0, ended: 0 })) } as unknown as SweepLiveCalls;
    const maintenance = new EngineMaintenance(reaper, liveCalls, { reaperIntervalMs: 5, attemptIdleMs: 4321 } as AppConfig);
    expect(await maintenance.run()).toEqual({ recovered: 0, reaped: 0, released: 0, waiting: 0, resumed: 3, legsSettled: 2, swept: 1 });
    expect(steps).toEqual(['reap', 'resume', 'legs', 'sweep']);
    expect(liveCallSweeps).toBe(0); // on a timer of its own
    await tickUntil(maintenance, () => idleTimes.length >= 3 && liveCallSweeps >= 2);
    expect(idleTimes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(idleTimes)).toEqual(new Set([4321]));
  });
});
