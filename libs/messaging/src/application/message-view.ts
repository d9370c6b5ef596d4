import type { MessageProps } from '../domain/message';

/** A message as the API shows it (GET /whatsapp/messages; the contract names the window, not the fields: decisions.md 30.16). */
export interface MessageView {
  id: string;
  channel: string;
  direction: string;
  status: string;
  senderId: string;
  templateId: string | null;
  /** The contact's address: the recipient of an outbound message, the author of an inbound one. */
  contact: string;
  text: string;
  subject: string | null;
  inReplyToId: string | null;
  failureReason: string | null;
  createdAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  failedAt: string | null;
}

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

export function messageView(m: MessageProps): MessageView {
  return {
    id: m.id,
    channel: m.channel,
    direction: m.direction,
    status: m.status,
    senderId: m.senderId,
    templateId: m.templateId,
    contact: m.address,
    text: m.body,
    subject: m.subject,
    inReplyToId: m.inReplyToId,
    failureReason: m.failureReason,
    createdAt: m.createdAt.toISOString(),
    sentAt: iso(m.sentAt),
    deliveredAt: iso(m.deliveredAt),
    readAt: iso(m.readAt),
    failedAt: iso(m.failedAt),
  };
}
