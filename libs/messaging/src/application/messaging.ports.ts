import type { MessageProps } from '../domain/message';
import type { MessageChannel } from '../domain/opt-out';
import type { EmailSender } from '../domain/email-sender';
import type { EmailTemplate } from '../domain/email-template';
import type { WhatsappSender } from '../domain/whatsapp-sender';
import type { WhatsappTemplate } from '../domain/whatsapp-template';
import type { SmtpCredentials, WhatsappCredentials } from './message-provider.port';

/** Authenticated encryption of provider credentials at rest; `context` binds a sealed value to its row. */
export abstract class CredentialSealer {
  abstract seal(plaintext: string, context: string): string;
  abstract open(sealed: string, context: string): string;
}

export abstract class WhatsappSenderRepository {
  /** Writes the sender (with its credentials, sealed, when given). invalid_request when the workspace has the number already. */
  abstract insert(sender: WhatsappSender, credentials: WhatsappCredentials | null): Promise<void>;
  abstract update(sender: WhatsappSender): Promise<void>;
  abstract delete(workspaceId: string, id: string): Promise<boolean>;
  abstract findById(workspaceId: string, id: string, options?: { lock?: boolean }): Promise<WhatsappSender | null>;
  /** Any workspace's sender: for the worker's jobs. */
  abstract findAnyById(id: string, options?: { lock?: boolean }): Promise<WhatsappSender | null>;
  abstract listByWorkspace(workspaceId: string): Promise<WhatsappSender[]>;
  /** Clears the default flag of the workspace's other senders. */
  abstract clearDefault(workspaceId: string, exceptId: string): Promise<void>;
  /** The oldest remaining sender becomes the default when none is. */
  abstract ensureDefault(workspaceId: string): Promise<void>;
  abstract countConnected(workspaceId: string): Promise<number>;
  /** Locks the workspace's senders for a change of the default (serialises concurrent creations). */
  abstract lockWorkspace(workspaceId: string): Promise<void>;
  /** Decrypted credentials, for the provider call; never for responses. */
  abstract revealCredentials(sender: WhatsappSender): Promise<WhatsappCredentials | null>;
  /**
   * findById and the sender's sealed credentials in one read (a send needs both, decisions.md
   * 44.9); `reveal` opens them (and throws as revealCredentials does) only when called.
   */
  abstract findForSend(workspaceId: string, id: string): Promise<{ sender: WhatsappSender; reveal: () => WhatsappCredentials | null } | null>;
}

export abstract class WhatsappTemplateRepository {
  /** name_taken when the workspace has a template of that name and language. */
  abstract insert(template: WhatsappTemplate): Promise<void>;
  abstract update(template: WhatsappTemplate): Promise<void>;
  abstract delete(workspaceId: string, id: string): Promise<boolean>;
  abstract findById(workspaceId: string, id: string, options?: { lock?: boolean }): Promise<WhatsappTemplate | null>;
  abstract findAnyById(id: string, options?: { lock?: boolean }): Promise<WhatsappTemplate | null>;
  abstract listByWorkspace(workspaceId: string): Promise<WhatsappTemplate[]>;
}

export abstract class EmailSenderRepository {
  /** invalid_request when the workspace has that From address already. */
  abstract insert(sender: EmailSender, credentials: SmtpCredentials): Promise<void>;
  /** Re-seals the credentials when given. */
  abstract update(sender: EmailSender, credentials?: SmtpCredentials): Promise<void>;
  abstract delete(workspaceId: string, id: string): Promise<boolean>;
  abstract findById(workspaceId: string, id: string, options?: { lock?: boolean }): Promise<EmailSender | null>;
  /** Any workspace's mailbox: for its webhook. */
  abstract findAnyById(id: string): Promise<EmailSender | null>;
  abstract listByWorkspace(workspaceId: string): Promise<EmailSender[]>;
  abstract clearDefault(workspaceId: string, exceptId: string): Promise<void>;
  abstract ensureDefault(workspaceId: string): Promise<void>;
  abstract lockWorkspace(workspaceId: string): Promise<void>;
  abstract revealCredentials(workspaceId: string, id: string): Promise<SmtpCredentials | null>;
}

export abstract class EmailTemplateRepository {
  /** name_taken when the workspace has a template of that name. */
  abstract insert(template: EmailTemplate): Promise<void>;
  abstract update(template: EmailTemplate): Promise<void>;
  abstract delete(workspaceId: string, id: string): Promise<boolean>;
  abstract findById(workspaceId: string, id: string, options?: { lock?: boolean }): Promise<EmailTemplate | null>;
  abstract listByWorkspace(workspaceId: string): Promise<EmailTemplate[]>;
  abstract clearDefault(workspaceId: string, exceptId: string): Promise<void>;
  abstract ensureDefault(workspaceId: string): Promise<void>;
  abstract lockWorkspace(workspaceId: string): Promise<void>;
  abstract hasDefault(workspaceId: string): Promise<boolean>;
}

export abstract class OptOutRepository {
  /** Records the opt-out; true when it is new. */
  abstract record(entry: { workspaceId: string; channel: MessageChannel; address: string; source: string; at: Date }): Promise<boolean>;
  abstract isOptedOut(workspaceId: string, channel: MessageChannel, address: string): Promise<boolean>;
  /** `record` of several opt-outs in one statement: answers the entries that were new. */
  abstract recordMany<E extends { workspaceId: string; channel: MessageChannel; address: string; source: string; at: Date }>(entries: readonly E[]): Promise<E[]>;
  /** The addresses among these that opted out of the channel (one read). */
  abstract optedOutAmong(workspaceId: string, channel: MessageChannel, addresses: readonly string[]): Promise<Set<string>>;
}

/** Messages sent and received (table `messages`, decisions.md 30.12). */
export abstract class MessageRepository {
  /** Writes a new QUEUED message; false when the workspace has a message with its idempotency key already. */
  abstract insertOutbound(message: MessageProps): Promise<boolean>;
  /** Writes inbound messages in one statement, skipping any whose provider id is known already (a redelivery): answers the ids written. */
  abstract insertInboundMany(messages: readonly MessageProps[]): Promise<Set<string>>;
  /** insertOutbound of several messages in one statement: answers the ids written (the others' keys were taken). */
  abstract insertOutboundMany(messages: readonly MessageProps[]): Promise<Set<string>>;
  abstract findByKey(workspaceId: string, channel: MessageChannel, idempotencyKey: string): Promise<MessageProps | null>;
  abstract findById(id: string, options?: { lock?: boolean }): Promise<MessageProps | null>;
  /** findById of several messages (locked in id order with `lock`, inside a transaction); missing ids are left out. */
  abstract findManyById(ids: readonly string[], options?: { lock?: boolean }): Promise<MessageProps[]>;
  /** Messages with whether each was answered (hasReply), in one read (decisions.md 44.9, 47.6); missing ids are left out. */
  abstract findManyWithReply(ids: readonly string[]): Promise<Array<{ message: MessageProps; replied: boolean }>>;
  /** True when an inbound message answers outbound message `id` (messages_in_reply_to_idx). */
  abstract hasReply(id: string): Promise<boolean>;
  /** True when `address` wrote to the workspace on `channel` at or after `since` (an inbound message). */
  abstract hasInboundSince(workspaceId: string, channel: MessageChannel, address: string, since: Date): Promise<boolean>;
  abstract findByProviderMessageId(channel: MessageChannel, provider: string, providerMessageId: string, options?: { lock?: boolean }): Promise<MessageProps | null>;
  /**
   * The latest outbound message `senderId` sent to `address` on `channel` that the provider
   * accepted and did not fail, written at or after `since` (messages_sender_address_idx): what an
   * unquoted reply answers.
   */
  abstract latestSentTo(senderId: string, channel: MessageChannel, address: string, since: Date): Promise<MessageProps | null>;
  /**
   * Takes the send of a QUEUED message: true when nobody else is sending it (no lease, or one
   * taken before `staleBefore`: its sender died). Sets the lease to `now`.
   */
  abstract claimSend(id: string, now: Date, staleBefore: Date): Promise<boolean>;
  /** Gives the lease back (the provider refused for now: a later try may send). */
  abstract releaseSend(id: string): Promise<void>;
  /** Writes the message's state (status, provider id, timestamps, failure). */
  abstract update(message: MessageProps): Promise<void>;
  /** The workspace's latest messages on a channel, newest first. */
  abstract listRecent(workspaceId: string, channel: MessageChannel, limit: number): Promise<MessageProps[]>;
  /** The workspace's outbound messages of these ids (others are left out). */
  abstract findOutbound(workspaceId: string, ids: readonly string[]): Promise<MessageProps[]>;
  /** Inbound messages answering any of these messages. */
  abstract repliesTo(ids: readonly string[]): Promise<MessageProps[]>;
  /** Writes the state of several messages in one statement (as `update` does for one). */
  abstract updateMany(messages: readonly MessageProps[]): Promise<void>;
}
