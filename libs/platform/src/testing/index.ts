// In-memory fakes of the platform's ports, for use-case specs (the middle test tier): no Nest
// container, no database, no Redis. Only *.spec.ts files and other modules' testing/ folders
// import this (a dependency rule enforces it).
import { AppError, FixedClock, Outbox, OutboxJob, UnitOfWork } from '@outreach/core';

export { FixedClock };

/** Something whose state a RollbackUnitOfWork saves and restores (an in-memory store taking part). */
export interface Rollbackable {
  snapshot(): unknown;
  restore(state: unknown): void;
}

/** Anything with a `jobs` array (the RecordingOutbox): rolled back by truncating it. */
export function jobsRollback(outbox: { jobs: unknown[] }): Rollbackable {
  return {
    snapshot: () => outbox.jobs.length,
    restore: (length) => {
      outbox.jobs.splice(length as number);
    },
  };
}

/**
 * A UnitOfWork that runs the work at once and behaves like a transaction: the participants are
 * snapshotted when the outermost `run` starts and restored when the work throws, so a spec can
 * assert that a refused request leaves nothing behind (without participants it only runs the
 * work). Counts the units of work so a spec can assert atomic boundaries.
 */
export class RollbackUnitOfWork extends UnitOfWork {
  /** Units of work started (nested runs included). */
  runs = 0;
  /** Units of work whose changes were undone. */
  rolledBack = 0;
  private depth = 0;

  constructor(private readonly participants: Rollbackable[] = []) {
    super();
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.runs += 1;
    // Nested calls join the outer unit, as the real one does: only the outermost restores.
    if (this.depth > 0) return work();
    const states = this.participants.map((p) => p.snapshot());
    this.depth += 1;
    try {
      return await work();
    } catch (error) {
      this.participants.forEach((p, i) => p.restore(states[i]));
      this.rolledBack += 1;
      throw error;
    } finally {
      this.depth -= 1;
    }
  }
}

/** Keeps every enqueued job in `jobs`, in order. */
export class RecordingOutbox extends Outbox {
  readonly jobs: OutboxJob[] = [];

  override async enqueue(...jobs: OutboxJob[]): Promise<string[]> {
    const first = this.jobs.length;
    this.jobs.push(...jobs);
    return jobs.map((_, i) => String(first + i + 1));
  }

  /** Statement parts are SQL: use-case specs fake the port that runs such a statement instead. */
  override enqueueAfter(): void {
    throw new Error('RecordingOutbox cannot write into a SQL statement');
  }

  /** The jobs of one queue and name. */
  named(queue: string, name: string): OutboxJob[] {
    return this.jobs.filter((j) => j.queue === queue && j.name === name);
  }
}

/**
 * What a use case raised: its code, and the status it chose (none: statuses are the HTTP layer's,
 * decisions.md 25.6). Null when it did not fail; anything but an AppError is rethrown.
 */
export async function codeOf(work: Promise<unknown>): Promise<{ code: string; chosenStatus?: number } | null> {
  try {
    await work;
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.code, chosenStatus: error.options.status };
  }
}

/**
 * Runs a maintenance on its own timer (`onApplicationBootstrap`) until `enough()` holds or about
 * half a second has passed, then stops it: for specs that check what each tick was given.
 */
export async function tickUntil(maintenance: { onApplicationBootstrap(): void; onApplicationShutdown(): Promise<void> }, enough: () => boolean): Promise<void> {
  maintenance.onApplicationBootstrap();
  try {
    for (let i = 0; i < 100 && !enough(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  } finally {
    await maintenance.onApplicationShutdown();
  }
}
