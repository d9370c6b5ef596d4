import { column, defineTable } from '@outreach/platform';
import type { EmailSenderProps } from '../../domain/email-sender';
import type { EmailTemplateProps } from '../../domain/email-template';
import type { MessageContent, MessageDirection, MessageProps, MessageStatus } from '../../domain/message';
import type { MessageChannel } from '../../domain/opt-out';
import type { VariableBinding } from '../../domain/variable-bindings';
import type { NumberSource, SenderMode, SenderStatus, WhatsappSenderProps } from '../../domain/whatsapp-sender';
import type { TemplateCategory, TemplateStatus, WhatsappTemplateProps } from '../../domain/whatsapp-template';

/** The tables of the messaging module (migration 1763700009900), each defined once. */

/** A sender row: the aggregate's props with the credentials sealed (never selected for responses). */
export interface WhatsappSenderRecord extends WhatsappSenderProps {
  credentialsSealed: string | null;
}

export const WHATSAPP_SENDERS = defineTable<WhatsappSenderRecord>('whatsapp_senders', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  mode: column.text<SenderMode>('mode'),
  numberSource: column.text<NumberSource>('number_source'),
  status: column.text<SenderStatus>('status'),
  e164: column.text('e164'),
  phoneDisplay: column.text('phone_display'),
  isDefault: column.bool('is_default'),
  hasCredentials: column.bool('has_credentials'),
  credentialsSealed: column.nullableText('credentials_sealed'),
  verifiedName: column.nullableText('verified_name'),
  qualityRating: column.nullableText('quality_rating'),
  failureReason: column.nullableText('failure_reason'),
  connectedAt: column.nullableTimestamp('connected_at'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});
export const WHATSAPP_SENDER_COLUMNS = WHATSAPP_SENDERS.keys.filter(
  (key): key is Exclude<keyof WhatsappSenderRecord, 'credentialsSealed'> => key !== 'credentialsSealed',
);
export const WHATSAPP_SENDERS_NUMBER_INDEX = 'whatsapp_senders_workspace_e164_key';

export const WHATSAPP_TEMPLATES = defineTable<WhatsappTemplateProps>('whatsapp_templates', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  name: column.text('name'),
  language: column.text('language'),
  category: column.text<TemplateCategory>('category'),
  body: column.text('body'),
  footer: column.nullableText('footer'),
  bindings: column.json<VariableBinding[]>('bindings'),
  status: column.text<TemplateStatus>('status'),
  rejectionReason: column.nullableText('rejection_reason'),
  submittedAt: column.nullableTimestamp('submitted_at'),
  reviewedAt: column.nullableTimestamp('reviewed_at'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});
export const WHATSAPP_TEMPLATES_NAME_INDEX = 'whatsapp_templates_workspace_name_key';

export interface EmailSenderRecord extends EmailSenderProps {
  credentialsSealed: string | null;
}

export const EMAIL_SENDERS = defineTable<EmailSenderRecord>('email_senders', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  fromAddress: column.text('from_address'),
  displayName: column.text('display_name'),
  replyTo: column.nullableText('reply_to'),
  isDefault: column.bool('is_default'),
  hasCredentials: column.bool('has_credentials'),
  credentialsSealed: column.nullableText('credentials_sealed'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});
export const EMAIL_SENDER_COLUMNS = EMAIL_SENDERS.keys.filter(
  (key): key is Exclude<keyof EmailSenderRecord, 'credentialsSealed'> => key !== 'credentialsSealed',
);
export const EMAIL_SENDERS_ADDRESS_INDEX = 'email_senders_workspace_address_key';

export const EMAIL_TEMPLATES = defineTable<EmailTemplateProps>('email_templates', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  name: column.text('name'),
  subject: column.text('subject'),
  htmlBody: column.nullableText('html_body'),
  textBody: column.nullableText('text_body'),
  bindings: column.json<VariableBinding[]>('bindings'),
  isDefault: column.bool('is_default'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});
export const EMAIL_TEMPLATES_NAME_INDEX = 'email_templates_workspace_name_key';

export interface OptOutRecord {
  workspaceId: string;
  channel: MessageChannel;
  address: string;
  source: string;
  createdAt: Date;
}

export const MESSAGE_OPT_OUTS = defineTable<OptOutRecord>('message_opt_outs', {
  workspaceId: column.uuid('workspace_id'),
  channel: column.text<MessageChannel>('channel'),
  address: column.text('address'),
  source: column.text('source'),
  createdAt: column.timestamp('created_at'),
});

/** Migration 1763700010200: messages sent and received. */
export const MESSAGES = defineTable<MessageProps>('messages', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  channel: column.text<MessageChannel>('channel'),
  direction: column.text<MessageDirection>('direction'),
  status: column.text<MessageStatus>('status'),
  senderId: column.uuid('sender_id'),
  templateId: column.nullableUuid('template_id'),
  address: column.text('address'),
  body: column.text('body'),
  subject: column.nullableText('subject'),
  content: column.json<MessageContent | null>('content'),
  idempotencyKey: column.nullableText('idempotency_key'),
  provider: column.text('provider'),
  providerMessageId: column.nullableText('provider_message_id'),
  inReplyToId: column.nullableUuid('in_reply_to_id'),
  failureReason: column.nullableText('failure_reason'),
  sendStartedAt: column.nullableTimestamp('send_started_at'),
  createdAt: column.timestamp('created_at'),
  sentAt: column.nullableTimestamp('sent_at'),
  deliveredAt: column.nullableTimestamp('delivered_at'),
  readAt: column.nullableTimestamp('read_at'),
  failedAt: column.nullableTimestamp('failed_at'),
  updatedAt: column.timestamp('updated_at'),
});
