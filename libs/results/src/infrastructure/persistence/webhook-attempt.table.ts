import { column, defineTable } from '@outreach/platform';

/** One try of a delivery (number counts from 1 per delivery). */
export interface DeliveryAttemptRecord {
  deliveryId: string;
  number: number;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export const RESULT_WEBHOOK_ATTEMPTS = defineTable<DeliveryAttemptRecord>('result_webhook_attempts', {
  deliveryId: column.uuid('delivery_id'),
  number: column.int('number'),
  attemptedAt: column.timestamp('attempted_at'),
  statusCode: column.nullableInt('status_code'),
  error: column.nullableText('error'),
  durationMs: column.int('duration_ms'),
});
