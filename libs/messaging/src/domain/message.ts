import type { MessageChannel } from './opt-out';

/**
 * A message sent or received on a channel (decisions.md 30.12). An outbound message is QUEUED
 * when it is written (before the provider is asked), SENT when the provider accepted it, then
 * DELIVERED and READ as the provider reports; FAILED when the provider refused it or reported it
 * undeliverable. An inbound message (a reply) is RECEIVED and stays so.
 *
 * Progress only moves forward: a late, repeated or reordered report changes nothing (READ then a
 * late "delivered" stays READ; a failure after READ is ignored).
 */
export const MESSAGE_STATUSES = ['QUEUED', 'SENT', 'DELIVERED', 'READ', 'FAILED', 'RECEIVED'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const MESSAGE_DIRECTIONS = ['OUTBOUND', 'INBOUND'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

/** What a provider reports about an outbound message. */
export type MessageProgress = 'sent' | 'delivered' | 'read' | 'failed';

/** The outbound state machine: one table. `to` is reached from any of `from`. */
const TRANSITIONS: Readonly<Record<MessageProgress, { from: readonly MessageStatus[]; to: MessageStatus }>> = {
  sent: { from: ['QUEUED'], to: 'SENT' },
  delivered: { from: ['QUEUED', 'SENT'], to: 'DELIVERED' },
  read: { from: ['QUEUED', 'SENT', 'DELIVERED'], to: 'READ' },
  failed: { from: ['QUEUED', 'SENT', 'DELIVERED'], to: 'FAILED' },
};

/** True when `progress` moves a message in `status` forward (false: a late, repeated or impossible report). */
export function canProgress(status: MessageStatus, progress: MessageProgress): boolean {
  return TRANSITIONS[progress].from.includes(status);
}

export function progressTarget(progress: MessageProgress): MessageStatus {
  return TRANSITIONS[progress].to;
}

/** What the provider is given for one message, kept so that a retried send sends the same thing. */
export type MessageContent =
  | { kind: 'whatsapp_template'; templateName: string; language: string; parameters: string[] }
  | { kind: 'email'; subject: string; html: string | null; text: string | null };

export interface MessageProps {
  id: string;
  workspaceId: string;
  channel: MessageChannel;
  direction: MessageDirection;
  status: MessageStatus;
  senderId: string;
  templateId: string | null;
  /** The contact's address: the recipient of an outbound message, the author of an inbound one (E.164 or email). */
  address: string;
  /** The text as the contact sees it (the rendered template body; an inbound message's text). */
  body: string;
  subject: string | null;
  content: MessageContent | null;
  idempotencyKey: string | null;
  provider: string;
  providerMessageId: string | null;
  /** Inbound: our outbound message it answers, when the provider says so. */
  inReplyToId: string | null;
  failureReason: string | null;
  /** When a sender last took the message to the provider (a lease: a second sender waits). */
  sendStartedAt: Date | null;
  createdAt: Date;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  failedAt: Date | null;
  updatedAt: Date;
}

/**
 * Applies a provider's report to an outbound message, in place; false (nothing changes) when it
 * does not move the message forward. `sent` also records the provider's id for the message. A
 * message delivered or read was sent by then: a report that overtook the provider's acceptance
 * (the sandbox reports at once) sets `sentAt` too, and the late acceptance keeps it.
 */
export function applyProgress(
  message: MessageProps,
  report: { progress: MessageProgress; at: Date; providerMessageId?: string; reason?: string },
): boolean {
  if (message.direction !== 'OUTBOUND') return false;
  if (report.providerMessageId && !message.providerMessageId) message.providerMessageId = report.providerMessageId;
  if (!canProgress(message.status, report.progress)) return false;
  message.status = progressTarget(report.progress);
  switch (report.progress) {
    case 'sent':
      message.sentAt = report.at;
      break;
    case 'delivered':
      message.deliveredAt = report.at;
      message.sentAt ??= report.at;
      break;
    case 'read':
      message.readAt = report.at;
      message.deliveredAt ??= report.at;
      message.sentAt ??= report.at;
      break;
    case 'failed':
      message.failedAt = report.at;
      message.failureReason = report.reason ?? 'failed';
      break;
  }
  message.sendStartedAt = null;
  message.updatedAt = report.at;
  return true;
}
