import { column, defineTable } from '@outreach/platform';
import { SkipReason, TimelineEventType } from '../../domain/contact-timeline';

export interface TimelineEventRecord {
  seq: string;
  contactId: string;
  type: TimelineEventType;
  occurredAt: Date;
  detail: Record<string, unknown>;
}

/** A contact's events (decisions.md 29.3); `seq` orders them and is the cursor position. */
export const CONTACT_TIMELINE_EVENTS = defineTable<TimelineEventRecord>('contact_timeline_events', {
  seq: column.bigintText('seq'),
  contactId: column.uuid('contact_id'),
  type: column.text<TimelineEventType>('type'),
  occurredAt: column.timestamp('occurred_at'),
  detail: column.json<Record<string, unknown>>('detail'),
});

export interface ContactWaitRecord {
  contactId: string;
  reason: SkipReason;
  until: Date | null;
  since: Date;
}

/** Why a due contact currently waits, as last recorded: a skip is written only when this changes. */
export const CONTACT_WAITS = defineTable<ContactWaitRecord>('contact_waits', {
  contactId: column.uuid('contact_id'),
  reason: column.text<SkipReason>('reason'),
  until: column.nullableTimestamp('until'),
  since: column.timestamp('since'),
});
