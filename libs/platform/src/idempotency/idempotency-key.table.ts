import { column, defineTable } from '../database/table-definition';

export type IdempotencyKeyState = 'in_progress' | 'completed';

/** An Idempotency-Key record (table idempotency_keys, primary key workspace + route + key). */
export interface IdempotencyKeyRecord {
  workspaceId: string;
  route: string;
  key: string;
  requestHash: string;
  state: IdempotencyKeyState;
  /** Which request holds the key while it is in progress. */
  ownerToken: string;
  responseStatus: number | null;
  responseBody: unknown;
  lockedUntil: Date;
  expiresAt: Date;
  createdAt: Date;
  completedAt: Date | null;
}

export const IDEMPOTENCY_KEYS = defineTable<IdempotencyKeyRecord>('idempotency_keys', {
  workspaceId: column.uuid('workspace_id'),
  route: column.text('route'),
  key: column.text('key'),
  requestHash: column.text('request_hash'),
  state: column.text<IdempotencyKeyState>('state'),
  ownerToken: column.uuid('owner_token'),
  responseStatus: column.nullableInt('response_status'),
  responseBody: column.json<unknown>('response_body'),
  lockedUntil: column.timestamp('locked_until'),
  expiresAt: column.timestamp('expires_at'),
  createdAt: column.timestamp('created_at'),
  completedAt: column.nullableTimestamp('completed_at'),
});
