import { Injectable, Logger } from '@nestjs/common';
import { CampaignExecution, PlacedCall } from '@outreach/campaigns';
import { CallLog, CallStatus } from '@outreach/calls';
import { AppConfig, Clock } from '@outreach/core';
import { SweepLease } from './engine.ports';
import { PollCall } from './poll-call.use-case';

/** Placed calls read per statement. */
const PAGE = 500;
/** Provider look-ups in flight at once. */
const ASKING_AT_ONCE = 10;
/** Calls the provider accepted and that have not ended: their events may be overdue. A QUEUED call is its attempt job's. */
const ACCEPTED: readonly CallStatus[] = ['DIALING', 'RINGING', 'IN_PROGRESS'];

export interface LiveCallSweepReport {
  /** False when another process holds the sweep. */
  swept: boolean;
  /** Calls the provider was asked about. */
  asked: number;
  /** Of those, calls it reported ended (or no longer knew), settled now. */
  ended: number;
}

/**
 * The fallback for lost provider events (decisions.md 16.44): the provider is asked about every
 * call it accepted that has gone on for at least CALL_POLL_INTERVAL_MS, at most once per interval
 * per call, and an ended one is settled with the provider's record (PollCall). One statement per
 * 500 placed calls finds them (the IN_PROGRESS contacts with a call); nothing is written per call
 * while it goes on. The worker's maintenance runs it a few times per interval; one process at a
 * time sweeps (SweepLease), so each call is asked about once per interval whatever the number of
 * workers, and the sweeper's memory of whom it asked stays its own.
 */
@Injectable()
export class SweepLiveCalls {
  private readonly logger = new Logger('SweepLiveCalls');
  /** When this process last asked about a call, by call id. */
  private readonly asked = new Map<string, number>();

  constructor(
    private readonly execution: CampaignExecution,
    private readonly callLog: CallLog,
    private readonly poll: PollCall,
    private readonly lease: SweepLease,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** How often the maintenance runs the sweep: a third of the interval, so an overdue call waits at most a third more. */
  get everyMs(): number {
    return Math.max(50, Math.floor(this.config.callPollIntervalMs / 3));
  }

  async execute(): Promise<LiveCallSweepReport> {
    const interval = this.config.callPollIntervalMs;
    // Held for an interval past this run: the holder renews it at each of its runs.
    if (!(await this.lease.hold('live-calls', interval))) return { swept: false, asked: 0, ended: 0 };
    const now = this.clock.now().getTime();
    for (const [callId, at] of this.asked) if (at <= now - interval) this.asked.delete(callId);
    const report: LiveCallSweepReport = { swept: true, asked: 0, ended: 0 };
    let after: PlacedCall | null = null;
    for (;;) {
      const page = await this.execution.findPlacedCalls(new Date(now - interval), after, PAGE);
      const due = page.filter((placed) => !this.asked.has(placed.callId));
      const calls = due.length === 0 ? [] : (await this.callLog.findMany(due.map((placed) => placed.callId))).filter((call) => ACCEPTED.includes(call.status));
      for (let i = 0; i < calls.length; i += ASKING_AT_ONCE) {
        await Promise.all(calls.slice(i, i + ASKING_AT_ONCE).map((call) => this.ask(call, now, report)));
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1];
    }
    return report;
  }

  private async ask(call: { id: string; status: CallStatus }, now: number, report: LiveCallSweepReport): Promise<void> {
    this.asked.set(call.id, now);
    report.asked++;
    try {
      const answer = await this.poll.ask(call);
      if (answer.state !== 'in_progress' && answer.state !== 'over') report.ended++;
    } catch (error) {
      // The provider unreachable, or the ending not stored: asked again at the next interval.
      this.logger.warn(`call ${call.id}: not settled from the provider's record (${(error as Error).message}); asking again in ${this.config.callPollIntervalMs} ms`);
    }
  }
}
