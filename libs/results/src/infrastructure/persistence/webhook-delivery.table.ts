import { column, defineTable } from '@outreach/platform';
import type { DeliveryStatus } from '../../application/results.ports';

/** One result to one endpoint, with its retry state. */
export interface DeliveryRecord {
  id: string;
  seq: string;
  workspaceId: string;
  endpointId: string;
  resultId: string;
  status: DeliveryStatus;
  attemptCount: number;
  /** Attempts made before the last manual redeliver. */
  retryBase: number;
  nextAttemptAt: Date | null;
  /** A sender holds the delivery until then. */
  leaseUntil: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const RESULT_WEBHOOK_DELIVERIES = defineTable<DeliveryRecord>('result_webhook_deliveries', {
  id: column.uuid('id'),
  seq: column.bigintText('seq'),
  workspaceId: column.uuid('workspace_id'),
  endpointId: column.uuid('endpoint_id'),
  resultId: column.uuid('result_id'),
  status: column.text<DeliveryStatus>('status'),
  attemptCount: column.int('attempt_count'),
  retryBase: column.int('retry_base'),
  nextAttemptAt: column.nullableTimestamp('next_attempt_at'),
  leaseUntil: column.nullableTimestamp('lease_until'),
  lastStatusCode: column.nullableInt('last_status_code'),
  lastError: column.nullableText('last_error'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});
