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
}
