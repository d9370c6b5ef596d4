import { column, defineTable } from '@outreach/platform';
import { ContactRecord } from '../../domain/contact';
import { ContactStatus } from '../../domain/contact-state-machine';
import type { ContactLeg } from '../../domain/contact-legs';

/**
 * The campaign_contacts table, declared once (docs/decisions.md, "Persistence"). Its status
 * changes follow CONTACT_TRANSITIONS (domain/contact-state-machine.ts): statements take their
 * from- and to-statuses from the table as parameters.
 */
export const CAMPAIGN_CONTACTS = defineTable<ContactRecord>('campaign_contacts', {
  id: column.uuid('id'),
  seq: column.bigint('seq'),
  campaignId: column.uuid('campaign_id'),
  workspaceId: column.uuid('workspace_id'),
  phone: column.text('phone'),
  altPhones: column.textArray('alt_phones'),
  name: column.nullableText('name'),
  fields: column.json<Record<string, string>>('fields'),
  status: column.text<ContactStatus>('status'),
  attempts: column.int('attempts'),
  attemptSeq: column.int('attempt_seq'),
  lastAttemptAt: column.nullableTimestamp('last_attempt_at'),
  nextAttemptAt: column.nullableTimestamp('next_attempt_at'),
  lastOutcome: column.nullableText('last_outcome'),
  attemptStartedAt: column.nullableTimestamp('attempt_started_at'),
  attemptDeadlineAt: column.nullableTimestamp('attempt_deadline_at'),
  currentCallId: column.nullableUuid('current_call_id'),
  incompleteRetries: column.int('incomplete_retries'),
  phoneIndex: column.int('phone_index'),
  phoneFirstAttempt: column.int('phone_first_attempt'),
  connectedPhone: column.nullableText('connected_phone'),
  lastTalkMs: column.nullableInt('last_talk_ms'),
  followups: column.int('followups'),
  churnRounds: column.int('churn_rounds'),
  referralDepth: column.int('referral_depth'),
  referredBy: column.nullableUuid('referred_by'),
  recipientZone: column.nullableText('recipient_zone'),
  recipientRegion: column.nullableText('recipient_region'),
  leg: column.nullableText<ContactLeg>('leg'),
  messageSends: column.int('message_sends'),
  messageTransient: column.int('message_transient'),
  messageLegAt: column.nullableTimestamp('message_leg_at'),
  messageOutcome: column.nullableText('message_outcome'),
  followupCallId: column.nullableUuid('followup_call_id'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});
