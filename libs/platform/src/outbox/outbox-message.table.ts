import { column, defineTable } from '../database/table-definition';

/** A job to enqueue, written in the same transaction as the change that causes it (table outbox). */
export interface OutboxMessage {
  id: string;
  queue: string;
  name: string;
  payload: Record<string, unknown>;
  /** BullMQ jobId to use; null → outbox-<id>. */
  jobId: string | null;
  createdAt: Date;
  dispatchedAt: Date | null;
  attempts: number;
  lastError: string | null;
  /** Set after a failure of this row alone: not tried again before then. */
  retryAt: Date | null;
}

export const OUTBOX = defineTable<OutboxMessage>('outbox', {
  id: column.uuid('id'),
  queue: column.text('queue'),
  name: column.text('name'),
  payload: column.json<Record<string, unknown>>('payload'),
  jobId: column.nullableText('job_id'),
  createdAt: column.timestamp('created_at'),
  dispatchedAt: column.nullableTimestamp('dispatched_at'),
  attempts: column.int('attempts'),
  lastError: column.nullableText('last_error'),
  retryAt: column.nullableTimestamp('retry_at'),
});
