import { Injectable } from '@nestjs/common';
import type { MessageStatus } from '../domain/message';
import { MessageChannel, optOutAddress } from '../domain/opt-out';
import { EmailSenderRepository, EmailTemplateRepository, MessageRepository, WhatsappSenderRepository } from './messaging.ports';

/** Where one message of a leg stands (decisions.md 33). */
export interface LegMessage {
  messageId: string;
  status: MessageStatus;
  failureReason: string | null;
  /** The contact answered it (an inbound message linked to it). */
  replied: boolean;
  /** When it was written (before the provider was first asked). */
  createdAt: Date;
}

/** A leg's message with the key it was sent under. */
export type KeyedLegMessage = { workspaceId: string; channel: MessageChannel; idempotencyKey: string } & LegMessage;

/**
 * What the engine's message legs read of messaging (decisions.md 33), beside SendMessage: which
 * sender and template a campaign sends with, where a leg's message stands, and whose leg a message
 * is (its idempotency key names the leg: the engine writes the key, so messaging stays
 * unaware of campaigns).
 */
@Injectable()
export class MessageLegs {
  constructor(
    private readonly messages: MessageRepository,
    private readonly whatsappSenders: WhatsappSenderRepository,
    private readonly emailSenders: EmailSenderRepository,
    private readonly emailTemplates: EmailTemplateRepository,
  ) {}

  /** The workspace's WhatsApp sender for campaigns: its default when CONNECTED, else its oldest CONNECTED one (decisions.md 30.7). */
  async whatsappSender(workspaceId: string): Promise<string | null> {
    const connected = (await this.whatsappSenders.listByWorkspace(workspaceId)).filter((s) => s.status === 'CONNECTED');
    return (connected.find((s) => s.isDefault) ?? connected[0])?.id ?? null;
  }

  /** An EMAIL campaign sends from the default mailbox with the default email template (decisions.md 30.6). */
  async emailDefaults(workspaceId: string): Promise<{ senderId: string; templateId: string } | null> {
    const sender = (await this.emailSenders.listByWorkspace(workspaceId)).find((s) => s.isDefault);
    const template = (await this.emailTemplates.listByWorkspace(workspaceId)).find((t) => t.isDefault);
    return sender && template ? { senderId: sender.id, templateId: template.id } : null;
  }

  /** The message sent under the caller's key, or null when none was written. */
  async byKey(workspaceId: string, channel: MessageChannel, idempotencyKey: string): Promise<LegMessage | null> {
    const message = await this.messages.findByKey(workspaceId, channel, idempotencyKey);
    if (!message) return null;
    return {
      messageId: message.id,
      status: message.status,
      failureReason: message.failureReason,
      replied: await this.messages.hasReply(message.id),
      createdAt: message.createdAt,
    };
  }

  /** The contact (an E.164 number or an email address) wrote to the workspace on the channel since `since`. */
  repliedSince(workspaceId: string, channel: MessageChannel, address: string, since: Date): Promise<boolean> {
    return this.messages.hasInboundSince(workspaceId, channel, optOutAddress(channel, address), since);
  }

  /**
   * The key an outbound message was sent under (null for inbound messages and sends without one),
   * with where the message stands, its reply included (one read).
   */
  async keyOf(messageId: string): Promise<KeyedLegMessage | null> {
    return (await this.keysOf([messageId]))[0] ?? null;
  }

  /** keyOf of several messages in one read: the keyed outbound ones among them, in no particular order. */
  async keysOf(messageIds: readonly string[]): Promise<KeyedLegMessage[]> {
    const keyed: KeyedLegMessage[] = [];
    for (const { message, replied } of await this.messages.findManyWithReply(messageIds)) {
      if (message.direction !== 'OUTBOUND' || message.idempotencyKey === null) continue;
      keyed.push({
        workspaceId: message.workspaceId,
        channel: message.channel,
        idempotencyKey: message.idempotencyKey,
        messageId: message.id,
        status: message.status,
        failureReason: message.failureReason,
        replied,
        createdAt: message.createdAt,
      });
    }
    return keyed;
  }

  /** The contact answered message `messageId` (an inbound message linked to it). */
  replied(messageId: string): Promise<boolean> {
    return this.messages.hasReply(messageId);
  }

  /** The messages among these that their contact answered (one read). */
  async repliedAmong(messageIds: readonly string[]): Promise<Set<string>> {
    return new Set((await this.messages.repliesTo(messageIds)).map((reply) => reply.inReplyToId as string));
  }
}
