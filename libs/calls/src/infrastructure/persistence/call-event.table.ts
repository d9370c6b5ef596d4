import { column, defineTable } from '@outreach/platform';

/** A provider event already applied to a call (decisions.md 16.24): redeliveries are recognised by it. */
export interface CallEventRecord {
  provider: string;
  eventId: string;
  callId: string;
  type: string;
  receivedAt: Date;
}

export const CALL_EVENTS = defineTable<CallEventRecord>('call_events', {
  provider: column.text('provider'),
  eventId: column.text('event_id'),
  callId: column.uuid('call_id'),
  type: column.text('type'),
  receivedAt: column.timestamp('received_at'),
});
