import type { StatementParts } from './statement-parts';

/** A job to run after the transaction that writes it commits. */
export interface OutboxJob {
  /** BullMQ queue name (a module's queue enum value). */
  queue: string;
  /** Job name within the queue. */
  name: string;
  /** Ids only, never whole entities. */
  payload: Record<string, unknown>;
  /**
   * A deterministic BullMQ jobId (no ':' and not all digits), for jobs that must exist once per
   * business fact (e.g. attempt-<contactId>-<seq>); default outbox-<outbox row id>.
   */
  jobId?: string;
}

/**
 * The transactional outbox, as use cases see it: `enqueue` writes jobs inside the caller's
 * `UnitOfWork.run` transaction, so a job exists if and only if the change that caused it was
 * committed. Implemented by the platform (`SqlOutbox`); faked in use-case specs.
 */
export abstract class Outbox {
  /** Writes the jobs; returns their outbox ids. */
  abstract enqueue(...jobs: OutboxJob[]): Promise<string[]>;
  /**
   * Adds the job to a statement other modules write into (decisions.md 42.3), written once per
   * row `guard` (a part added before) returns, and only then: no row, no job.
   */
  abstract enqueueAfter(parts: StatementParts, guard: string, job: OutboxJob): void;
}

/** Strings that are UUIDs (what every public id is); anything else cannot name a row. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
