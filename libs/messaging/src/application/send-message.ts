import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Tariffs, WalletDebits } from '@outreach/billing';
import { AppConfig, AppError, Clock, isAppError, UnitOfWork } from '@outreach/core';
import type { EmailSender } from '../domain/email-sender';
import { applyProgress, MessageContent, MessageProps } from '../domain/message';
import { bindingValues, MessageVariables, renderPlaceholders } from '../domain/message-rendering';
import { MessageChannel, optOutAddress } from '../domain/opt-out';
import type { WhatsappSender } from '../domain/whatsapp-sender';
import {
  EmailProvider,
  emailProviderName,
  SmtpCredentials,
  TransientProviderError,
  WhatsappCredentials,
  WhatsappProvider,
  whatsappProviderName,
} from './message-provider.port';
import { messageView, MessageView } from './message-view';
import {
  EmailSenderRepository,
  EmailTemplateRepository,
  MessageRepository,
  OptOutRepository,
  WhatsappSenderRepository,
  WhatsappTemplateRepository,
} from './messaging.ports';
import { UnsubscribeLinks } from './unsubscribe-links';

export interface SendMessageInput {
  workspaceId: string;
  channel: MessageChannel;
  senderId: string;
  templateId: string;
  /** E.164 for WhatsApp, an email address for email. */
  to: string;
  variables: MessageVariables;
  /**
   * The caller's key for this one message (e.g. the attempt's id): a second call with the same key
   * answers the first message and never sends it twice. 1–200 characters.
   */
  idempotencyKey: string;
}

/**
 * What became of a send:
 * - `sent`: the provider accepted the message (SENT, or further when its reports came first); billed;
 * - `failed`: the provider refused it for good (FAILED, not billed);
 * - `retry_later`: the provider refused it for now; the message stays QUEUED and the same key may try again;
 * - `in_flight`: another caller is sending it right now (its lease is fresh).
 */
export type SendOutcome = 'sent' | 'failed' | 'retry_later' | 'in_flight';

export interface SendMessageResult {
  outcome: SendOutcome;
  message: MessageView;
  /** True when the key named a message sent (or settled) before: nothing was sent this time. */
  replayed: boolean;
}

/** How long a send may hold a QUEUED message before another caller with the same key takes over (its sender died). */
export const SEND_LEASE_MS = 60_000;

const KEY = /^[\x20-\x7e]{1,200}$/;

/**
 * The one entry point for sending a templated message (decisions.md 30.12): the engine's message
 * legs call it. In order: the checks (sender, template APPROVED, recipient not opted out, every
 * placeholder has a value) refuse with nothing written; the message is written QUEUED under the
 * caller's idempotency key; the provider is asked OUTSIDE any transaction; then one transaction
 * records SENT with the provider's id and debits one TARIFF_MESSAGE_MINOR (billing's debit port,
 * reference = the message id, so a replay never debits twice). Reports (delivered, read, failed)
 * arrive later through MessageEventIntake.
 */
@Injectable()
export class SendMessage {
  private readonly logger = new Logger('SendMessage');

  constructor(
    private readonly messages: MessageRepository,
    private readonly whatsappSenders: WhatsappSenderRepository,
    private readonly whatsappTemplates: WhatsappTemplateRepository,
    private readonly emailSenders: EmailSenderRepository,
    private readonly emailTemplates: EmailTemplateRepository,
    private readonly optOuts: OptOutRepository,
    private readonly whatsapp: WhatsappProvider,
    private readonly email: EmailProvider,
    private readonly unsubscribeLinks: UnsubscribeLinks,
    private readonly debits: WalletDebits,
    private readonly tariffs: Tariffs,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async send(input: SendMessageInput): Promise<SendMessageResult> {
    if (!KEY.test(input.idempotencyKey)) {
      throw new AppError('invalid_request', { message: 'idempotencyKey must be 1-200 printable ASCII characters' });
    }
    // A first send is the common case: the key is looked up only when the insert finds it taken or
    // the checks refuse (a key sent before is answered as a replay even when its checks would refuse
    // now), not before every send (decisions.md 44.8).
    let prepared: { message: MessageProps; via: Via };
    try {
      prepared = await this.prepare(input);
    } catch (error) {
      // Any refusal, coded or not (credentials that fail to open): a key sent before still answers its replay.
      const earlier = await this.messages.findByKey(input.workspaceId, input.channel, input.idempotencyKey);
      if (earlier) return this.resume(earlier);
      throw error;
    }
    if (await this.messages.insertOutbound(prepared.message)) {
      return this.deliver(prepared.message, prepared.via);
    }
    // The key was written before (a retry, a re-run, or another caller first): answer as a replay of its message.
    const message = await this.messages.findByKey(input.workspaceId, input.channel, input.idempotencyKey);
    if (!message) throw new Error(`message with key ${input.idempotencyKey} vanished`);
    return this.resume(message);
  }

  /** A message the key named before: settled ones are answered as they are; a QUEUED one is sent when nobody else is. */
  private async resume(message: MessageProps): Promise<SendMessageResult> {
    if (message.status !== 'QUEUED') {
      return { outcome: message.status === 'FAILED' ? 'failed' : 'sent', message: messageView(message), replayed: true };
    }
    const now = this.clock.now();
    // A send that died mid-way may have been accepted: wait for the provider's report naming our id (33.16).
    const wait = SEND_LEASE_MS + (message.sendStartedAt !== null && !dedupesOnOurId(message.provider) ? this.config.messageRetakeGraceMs : 0);
    if (!(await this.messages.claimSend(message.id, now, new Date(now.getTime() - wait)))) {
      return { outcome: 'in_flight', message: messageView(message), replayed: true };
    }
    // The contact may have opted out since the first try: the message is then never sent.
    if (await this.optOuts.isOptedOut(message.workspaceId, message.channel, optOutAddress(message.channel, message.address))) {
      await this.settle(message.id, (m) => applyProgress(m, { progress: 'failed', at: this.clock.now(), reason: 'contact_opted_out' }));
      throw new AppError('contact_opted_out', { message: `${message.address} opted out of ${message.channel} messages` });
    }
    return this.deliver({ ...message, sendStartedAt: now });
  }

  /**
   * The checks and the rendering; throws (nothing written) when the message cannot be sent. Also
   * answers the sender and credentials the checks read, so a first send asks the provider with them
   * instead of reading both again (decisions.md 44.6).
   */
  private async prepare(input: SendMessageInput): Promise<{ message: MessageProps; via: Via }> {
    const address = optOutAddress(input.channel, input.to);
    const now = this.clock.now();
    const base = {
      id: randomUUID(),
      workspaceId: input.workspaceId,
      channel: input.channel,
      direction: 'OUTBOUND' as const,
      status: 'QUEUED' as const,
      senderId: input.senderId,
      templateId: input.templateId,
      address,
      idempotencyKey: input.idempotencyKey,
      providerMessageId: null,
      inReplyToId: null,
      failureReason: null,
      sendStartedAt: now,
      createdAt: now,
      sentAt: null,
      deliveredAt: null,
      readAt: null,
      failedAt: null,
      updatedAt: now,
    };
    if (input.channel === 'WHATSAPP') {
      const found = await this.whatsappSenders.findForSend(input.workspaceId, input.senderId);
      if (!found) throw new AppError('not_found', { message: `no WhatsApp sender ${input.senderId}` });
      const sender = found.sender;
      if (sender.status !== 'CONNECTED') throw new AppError('invalid_request', { message: `WhatsApp sender ${input.senderId} is ${sender.status}, not CONNECTED` });
      const template = await this.whatsappTemplates.findById(input.workspaceId, input.templateId);
      if (!template) throw new AppError('template_not_found', { message: `no WhatsApp template ${input.templateId}` });
      if (template.status !== 'APPROVED') throw new AppError('template_not_approved', { message: `template ${template.name} is ${template.status}` });
      await this.assertNotOptedOut(input.workspaceId, input.channel, address);
      const fields = template.fields();
      const parameters = bindingValues(fields.bindings, input.variables);
      const content: MessageContent = { kind: 'whatsapp_template', templateName: fields.name, language: fields.language, parameters };
      const credentials = found.reveal();
      const message = { ...base, provider: whatsappProviderName(credentials), body: renderPlaceholders(fields.body, parameters), subject: null, content };
      return { message, via: { channel: 'WHATSAPP', sender, credentials } };
    }
    const sender = await this.emailSenders.findById(input.workspaceId, input.senderId);
    if (!sender) throw new AppError('not_found', { message: `no email sender ${input.senderId}` });
    const template = await this.emailTemplates.findById(input.workspaceId, input.templateId);
    if (!template) throw new AppError('template_not_found', { message: `no email template ${input.templateId}` });
    await this.assertNotOptedOut(input.workspaceId, input.channel, address);
    const fields = template.toProps();
    const values = bindingValues(fields.bindings, input.variables);
    const content: MessageContent = {
      kind: 'email',
      subject: renderPlaceholders(fields.subject, values),
      html: fields.htmlBody === null ? null : renderPlaceholders(fields.htmlBody, values, { html: true }),
      text: fields.textBody === null ? null : renderPlaceholders(fields.textBody, values),
    };
    const credentials = await this.emailSenders.revealCredentials(input.workspaceId, sender.id);
    const message = { ...base, provider: emailProviderName(credentials), body: content.text ?? content.html ?? '', subject: content.subject, content };
    return { message, via: { channel: 'EMAIL', sender, credentials } };
  }

  private async assertNotOptedOut(workspaceId: string, channel: MessageChannel, address: string): Promise<void> {
    if (await this.optOuts.isOptedOut(workspaceId, channel, address)) {
      throw new AppError('contact_opted_out', { message: `${address} opted out of ${channel} messages` });
    }
  }

  /** Asks the provider (no transaction open), then records what it answered. `via`: the checks' sender, on a first send. */
  private async deliver(message: MessageProps, via?: Via): Promise<SendMessageResult> {
    let providerMessageId: string;
    try {
      providerMessageId = await this.ask(message, via);
    } catch (error) {
      if (isTransient(error)) {
        await this.messages.releaseSend(message.id);
        this.logger.warn(`message ${message.id} refused for now: ${(error as Error).message}`);
        return { outcome: 'retry_later', message: messageView({ ...message, sendStartedAt: null }), replayed: false };
      }
      if ((isAppError(error) && error.code === 'provider_error') || error instanceof SenderGone) {
        const reason = (error as Error).message;
        const failed = await this.settle(message.id, (m) => applyProgress(m, { progress: 'failed', at: this.clock.now(), reason }));
        return { outcome: 'failed', message: messageView(failed), replayed: false };
      }
      await this.messages.releaseSend(message.id);
      throw error;
    }
    const sent = await this.recordAccepted(message.id, providerMessageId);
    return { outcome: 'sent', message: messageView(sent), replayed: false };
  }

  /**
   * The provider accepted the message with this id: one transaction records SENT (a report that
   * came first is kept) and debits one message (reference = the message id: never twice). Also
   * called by the intake when a status report names a message whose sender died before recording
   * it (33.16).
   */
  async recordAccepted(messageId: string, providerMessageId: string): Promise<MessageProps> {
    return this.uow.run(async () => {
      const current = await this.messages.findById(messageId, { lock: true });
      if (!current) throw new Error(`message ${messageId} vanished while it was sent`);
      // A report may have come first (the sandbox answers at once): keep it, record the provider's id.
      applyProgress(current, { progress: 'sent', at: this.clock.now(), providerMessageId });
      current.sendStartedAt = null;
      await this.messages.update(current);
      const amountMinor = await this.tariffs.messageCostMinor(current.workspaceId);
      await this.debits.debit({
        workspaceId: current.workspaceId,
        amountMinor,
        kind: 'message',
        reference: current.id,
        description: `${current.channel === 'WHATSAPP' ? 'WhatsApp' : 'Email'} message to ${current.address}`,
      });
      return current;
    });
  }

  /** A retried send (no `via`) reads its sender again: it may have been disconnected since the first try. */
  private async ask(message: MessageProps, via?: Via): Promise<string> {
    const content = message.content;
    if (content?.kind === 'whatsapp_template') {
      const sender = via?.channel === 'WHATSAPP' ? via.sender : await this.whatsappSenders.findAnyById(message.senderId);
      if (!sender) throw new SenderGone(`WhatsApp sender ${message.senderId} was disconnected`);
      const credentials = via?.channel === 'WHATSAPP' ? via.credentials : await this.whatsappSenders.revealCredentials(sender);
      const accepted = await this.whatsapp.send({
        messageId: message.id,
        senderId: sender.id,
        from: sender.e164,
        to: message.address,
        templateName: content.templateName,
        language: content.language,
        parameters: content.parameters,
        credentials,
      });
      return accepted.providerMessageId;
    }
    if (content?.kind === 'email') {
      const sender = via?.channel === 'EMAIL' ? via.sender : await this.emailSenders.findById(message.workspaceId, message.senderId);
      if (!sender) throw new SenderGone(`email sender ${message.senderId} was deleted`);
      const p = sender.toProps();
      const accepted = await this.email.send({
        messageId: message.id,
        senderId: sender.id,
        from: { address: p.fromAddress, name: p.displayName },
        replyTo: p.replyTo,
        to: message.address,
        subject: content.subject,
        html: content.html,
        text: content.text,
        unsubscribeUrl: this.unsubscribeLinks.urlFor(message.workspaceId, 'EMAIL', message.address),
        credentials: via?.channel === 'EMAIL' ? via.credentials : await this.emailSenders.revealCredentials(message.workspaceId, sender.id),
      });
      return accepted.providerMessageId;
    }
    throw new Error(`message ${message.id} has no content to send`);
  }

  private async settle(id: string, change: (message: MessageProps) => boolean): Promise<MessageProps> {
    return this.uow.run(async () => {
      const current = await this.messages.findById(id, { lock: true });
      if (!current) throw new Error(`message ${id} vanished`);
      if (change(current)) await this.messages.update(current);
      return current;
    });
  }
}

/** The sender (and its revealed credentials) a first send's checks read. */
type Via =
  | { channel: 'WHATSAPP'; sender: WhatsappSender; credentials: WhatsappCredentials | null }
  | { channel: 'EMAIL'; sender: EmailSender; credentials: SmtpCredentials | null };

/** The sandbox answers a second send of one message id with the first: a retake never needs to wait for it. */
function dedupesOnOurId(provider: string | null): boolean {
  return provider === 'sandbox';
}

/** The message's sender was removed before it was sent (a retried send): it can never be sent. */
class SenderGone extends Error {}

/** Refused for now: the sandbox's transient refusal, or a provider that was down, rate-limited or unreachable. */
function isTransient(error: unknown): boolean {
  if (error instanceof TransientProviderError) return true;
  if (!isAppError(error) || error.code !== 'provider_error') return false;
  const upstream = error.options.upstreamStatus;
  const retryable = (error.options.detail as { retryable?: unknown } | undefined)?.retryable === true;
  return retryable || upstream === undefined || upstream >= 500 || upstream === 429;
}
