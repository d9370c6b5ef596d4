import { DeferredSettlement, DirectEnqueue, DispatchScheduler, FailedAttemptJobs, SettlementQueue, SweepLease } from '../application/engine.ports';

/** Keeps every wake-up asked for; `failing` makes them reject (a lost hint). */
export class RecordingDispatchScheduler extends DispatchScheduler {
  readonly wakeIns: Array<{ campaignId: string; delayMs: number }> = [];
  readonly wakeNows: string[] = [];
  failing = false;

  async wakeIn(campaignId: string, delayMs: number): Promise<void> {
    if (this.failing) throw new Error('queue unavailable');
    this.wakeIns.push({ campaignId, delayMs });
  }

  async wakeNow(campaignId: string): Promise<void> {
    if (this.failing) throw new Error('queue unavailable');
    this.wakeNows.push(campaignId);
  }
}

type DirectJob = Parameters<DirectEnqueue['enqueue']>[0][number];

/** Keeps every batch put on the queues directly; `failing` makes it reject (the relay's copy runs instead). */
export class RecordingDirectEnqueue extends DirectEnqueue {
  readonly batches: DirectJob[][] = [];
  failing = false;

  async enqueue(jobs: ReadonlyArray<DirectJob>): Promise<void> {
    if (this.failing) throw new Error('queue unavailable');
    this.batches.push([...jobs]);
  }
}

/** Keeps every deferred settlement; `failing` makes defer reject (the queue unreachable too). */
export class RecordingSettlementQueue extends SettlementQueue {
  readonly deferred: DeferredSettlement[] = [];
  failing = false;

  async defer(settlement: DeferredSettlement): Promise<void> {
    if (this.failing) throw new Error('queue unavailable');
    this.deferred.push(settlement);
  }
}

/** A lease held by whichever name `holder` says (default: this process holds every lease); `asked` keeps each hold's name and ms. */
export class FixedSweepLease extends SweepLease {
  readonly asked: Array<{ name: string; ms: number }> = [];
  held = true;

  async hold(name: string, ms: number): Promise<boolean> {
    this.asked.push({ name, ms });
    return this.held;
  }
}

/** Attempt jobs in the queue's failed set (`failed`, by job id); `retry` moves those named back and keeps them in `retried`. */
export class RecordingFailedAttemptJobs extends FailedAttemptJobs {
  readonly failed = new Set<string>();
  readonly retried: string[] = [];

  async retry(jobIds: readonly string[]): Promise<number> {
    const mine = jobIds.filter((id) => this.failed.delete(id));
    this.retried.push(...mine);
    return mine.length;
  }
}
