import { column, defineTable } from '@outreach/platform';
import type { PhoneNumberProps } from '../../domain/phone-number';

/** `phone_numbers` (migration 1763700002000). */
export const PHONE_NUMBERS = defineTable<PhoneNumberProps>('phone_numbers', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  e164: column.text('e164'),
  carrier: column.text('carrier'),
  inbound: column.bool('inbound'),
  createdAt: column.timestamp('created_at'),
});

/** UNIQUE (e164): a number belongs to one workspace at most. */
export const PHONE_NUMBERS_E164_KEY = 'phone_numbers_e164_key';
