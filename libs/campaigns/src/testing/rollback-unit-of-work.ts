// A UnitOfWork for use-case specs that behaves like a transaction: the in-memory stores taking
// part are snapshotted when `run` starts and restored when the work throws, so a spec can assert
// that a refused request leaves nothing behind (the platform's FakeUnitOfWork only runs the work).
import { UnitOfWork } from '@outreach/core';

/** Something whose state a RollbackUnitOfWork saves and restores. */
export interface Rollbackable {
  snapshot(): unknown;
  restore(state: unknown): void;
}

/** Anything with a `jobs` array (the platform's RecordingOutbox): rolled back by truncating it. */
export function jobsRollback(outbox: { jobs: unknown[] }): Rollbackable {
  return {
    snapshot: () => outbox.jobs.length,
    restore: (length) => {
      outbox.jobs.splice(length as number);
    },
  };
}

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
