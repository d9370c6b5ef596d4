// In-memory fakes of the platform's ports, for use-case specs (the middle test tier): no Nest
// container, no database, no Redis. Only *.spec.ts files and other modules' testing/ folders
// import this (a dependency rule enforces it).
import { FixedClock, Outbox, OutboxJob, UnitOfWork } from '@outreach/core';

export { FixedClock };

/** Runs the work at once; counts the units of work so a spec can assert atomic boundaries. */
export class FakeUnitOfWork extends UnitOfWork {
  runs = 0;

  run<T>(work: () => Promise<T>): Promise<T> {
    this.runs += 1;
    return work();
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

  /** The jobs of one queue and name. */
  named(queue: string, name: string): OutboxJob[] {
    return this.jobs.filter((j) => j.queue === queue && j.name === name);
  }
}
