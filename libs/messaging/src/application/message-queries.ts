import { Injectable } from '@nestjs/common';
import type { MessageChannel } from '../domain/opt-out';
import { messageView, MessageView } from './message-view';
import { MessageRepository } from './messaging.ports';

/** The contract's fixed recent window of GET /whatsapp/messages: cannot be paged. */
export const RECENT_MESSAGES_WINDOW = 200;

@Injectable()
export class MessageQueries {
  constructor(private readonly messages: MessageRepository) {}

  /** The workspace's latest messages on a channel (sent and received), newest first, at most 200. */
  async recent(workspaceId: string, channel: MessageChannel): Promise<MessageView[]> {
    return (await this.messages.listRecent(workspaceId, channel, RECENT_MESSAGES_WINDOW)).map(messageView);
  }

  /**
   * Whose conversation a message is: its workspace, channel and the contact's address (E.164, or
   * an email address). Outreach rules read it for the message a reply answers (decisions.md 34.4).
   */
  async party(messageId: string): Promise<{ workspaceId: string; channel: MessageChannel; address: string; senderId: string } | null> {
    const message = await this.messages.findById(messageId);
    return message ? { workspaceId: message.workspaceId, channel: message.channel, address: message.address, senderId: message.senderId } : null;
  }
}
