import { Injectable } from '@nestjs/common';
import { isOptOutKeyword, type MessageChannel } from '../domain/opt-out';
import { messageView, MessageView } from './message-view';
import { MessageRepository } from './messaging.ports';

/** The contract's fixed recent window of GET /whatsapp/messages: cannot be paged. */
export const RECENT_MESSAGES_WINDOW = 200;

/** What became of one outbound message, for modules that sent it through SendMessage (e.g. crm's order updates). */
export interface MessageOutcome {
  message: MessageView;
  /** Inbound messages answering it. */
  replies: number;
  /** Whether one of those replies was an opt-out keyword (STOP…). */
  optedOutByReply: boolean;
}

@Injectable()
export class MessageQueries {
  constructor(private readonly messages: MessageRepository) {}

  /** The workspace's latest messages on a channel (sent and received), newest first, at most 200. */
  async recent(workspaceId: string, channel: MessageChannel): Promise<MessageView[]> {
    return (await this.messages.listRecent(workspaceId, channel, RECENT_MESSAGES_WINDOW)).map(messageView);
  }

  /** The outcome of each of the workspace's outbound messages named (ids of another workspace are left out). */
  async outcomes(workspaceId: string, ids: readonly string[]): Promise<MessageOutcome[]> {
    const sent = await this.messages.findOutbound(workspaceId, ids);
    const replies = await this.messages.repliesTo(sent.map((m) => m.id));
    return sent.map((m) => {
      const answers = replies.filter((r) => r.inReplyToId === m.id);
      return { message: messageView(m), replies: answers.length, optedOutByReply: answers.some((r) => isOptOutKeyword(r.body)) };
    });
  }

  /**
   * Whose conversation a message is: its workspace, channel and the contact's address (E.164, or
   * an email address). Outreach rules read it for the message a reply answers (decisions.md 34.4).
   */
  async party(messageId: string): Promise<MessageParty | null> {
    return (await this.parties([messageId])).get(messageId) ?? null;
  }

  /** `party` of several messages in one read, by message id (unknown ids are left out). */
  async parties(messageIds: readonly string[]): Promise<Map<string, MessageParty>> {
    const found = await this.messages.findManyById(messageIds);
    return new Map(
      found.map((m) => [m.id, { workspaceId: m.workspaceId, channel: m.channel, address: m.address, senderId: m.senderId, idempotencyKey: m.idempotencyKey }]),
    );
  }
}

/** Whose conversation a message is (MessageQueries.party). */
export interface MessageParty {
  workspaceId: string;
  channel: MessageChannel;
  address: string;
  senderId: string;
  idempotencyKey: string | null;
}
