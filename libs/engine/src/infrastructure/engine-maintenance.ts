import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, RepeatingTask } from '@outreach/platform';
import { ReapReport, ReapStuckAttempts } from '../application/reap-stuck-attempts.use-case';
import { SweepLiveCalls } from '../application/sweep-live-calls.use-case';

/**
 * The engine's safety net, run by every worker process on its own timer (REAPER_INTERVAL_MS):
 * the reaper takes back attempts held past their deadline, claims never dialled for ATTEMPT_IDLE_MS
 * get their attempt job again (16.30), message legs whose report is overdue are settled (47.17),
 * and the sweep asks for a dispatch
 * wake-up of every RUNNING campaign. Beside it, on a timer of its own (a third of
 * CALL_POLL_INTERVAL_MS), the live-call sweep asks the provider about calls whose events are
 * overdue (decisions.md 16.44); one worker at a time sweeps. A local timer rather than a BullMQ job scheduler, so the
 * net does not hang on Redis: a BullMQ repeatable whose job was active when Redis dropped waits
 * for the stalled-job check, and one that could not be created at boot never ran. Every step is
 * safe to run in several workers at once (row locks; wake-ups and attempt jobs de-duplicated by jobId).
 */
@Injectable()
export class EngineMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EngineMaintenance');
  private readonly loop = new RepeatingTask(
    () => this.run(),
    () => this.config.reaperIntervalMs,
    (error) => this.logger.warn(`engine maintenance failed: ${error.message}`),
  );

  private readonly liveCalls = new RepeatingTask(
    () => this.liveCallSweep.execute(),
    () => this.liveCallSweep.everyMs,
    (error) => this.logger.warn(`live-call sweep failed: ${error.message}`),
  );

  constructor(
    private readonly reaper: ReapStuckAttempts,
    private readonly liveCallSweep: SweepLiveCalls,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start(this.config.reaperIntervalMs);
    this.liveCalls.start(this.liveCallSweep.everyMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.loop.stop(), this.liveCalls.stop()]);
  }

  async run(): Promise<ReapReport & { resumed: number; legsSettled: number; swept: number }> {
    const reaped = await this.reaper.execute();
    const resumed = await this.reaper.resumeUndialled(this.config.attemptIdleMs);
    const legsSettled = await this.reaper.settleOverdueLegs();
    const swept = await this.reaper.sweep();
    return { ...reaped, resumed, legsSettled, swept };
  }
}
