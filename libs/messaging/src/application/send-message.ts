import { Injectable, Logger } from '@nestjs/common';
import { Tariffs, WalletDebits } from '@outreach/billing';
import { AppConfig, AppError, Clock, isAppError, timeOrderedUuid, UnitOfWork } from '@outreach/core';
import type { EmailSender } from '../domain/email-sender';
import type { EmailTemplate } from '../domain/email-template';
import { applyProgress, MessageContent, MessageProps } from '../domain/message';
import { bindingValues, MessageVariables, renderPlaceholders } from '../domain/message-rendering';
import { MessageChannel, optOutAddress } from '../domain/opt-out';
import type { WhatsappSender } from '../domain/whatsapp-sender';
import type { WhatsappTemplate } from '../domain/whatsapp-template';
import {
  EmailProvider,
  MessageEvents,
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
    private readonly events: MessageEvents,
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

  /**
   * `send` for a batch (decisions.md 47.5), with the same answers, message by message: the checks'
   * reads are made once per workspace, channel, sender and template, the opt-outs read in one
   * statement, the new messages written in one, the provider asked for each at once, and the
   * accepted ones recorded SENT and debited in ONE transaction. Anything off the common path —
   * a key written before, a recipient who opted out, checks or a rendering that refuse — goes
   * through `send` on its own, so it answers (or throws) exactly as `send` does.
   */
  async sendMany(inputs: readonly SendMessageInput[]): Promise<SendManyResult[]> {
    const out: SendManyResult[] = new Array(inputs.length);
    const fresh: Array<{ index: number; message: MessageProps; via: Via }> = [];
    const alone: number[] = [];
    for (const group of groupsOf(inputs)) {
      const first = inputs[group[0]];
      let checked: Checked;
      try {
        checked = await this.check(first);
      } catch {
        alone.push(...group);
        continue;
      }
      const optedOut = await this.optOuts.optedOutAmong(
        first.workspaceId,
        first.channel,
        group.map((i) => optOutAddress(first.channel, inputs[i].to)),
      );
      for (const i of group) {
        const input = inputs[i];
        if (!KEY.test(input.idempotencyKey) || optedOut.has(optOutAddress(input.channel, input.to))) {
          alone.push(i);
          continue;
        }
        try {
          fresh.push({ index: i, ...(await this.compose(input, checked)) });
        } catch {
          alone.push(i);
        }
      }
    }
    const written = await this.messages.insertOutboundMany(fresh.map((f) => f.message));
    const sending = fresh.filter((f) => written.has(f.message.id));
    for (const f of fresh) if (!written.has(f.message.id)) alone.push(f.index);
    // No transaction is open: the provider is asked for every new message at once. Their reports
    // wait until what it answered is on record (47.13).
    const { asked, recorded } = await this.events.holding(
      sending.map((f) => f.message.id),
      async () => {
        const asked = await Promise.all(
          sending.map((f) => this.ask(f.message, f.via).then((providerMessageId) => ({ providerMessageId }), (error: unknown) => ({ error }))),
        );
        const accepted = sending.flatMap((f, i) => {
          const answer = asked[i];
          return 'providerMessageId' in answer ? [{ messageId: f.message.id, providerMessageId: answer.providerMessageId }] : [];
        });
        return { asked, recorded: new Map((await this.recordAcceptedMany(accepted)).map((m) => [m.id, m])) };
      },
    );
    for (const [i, f] of sending.entries()) {
      const answer = asked[i];
      out[f.index] =
        'providerMessageId' in answer
          ? { result: { outcome: 'sent', message: messageView(recorded.get(f.message.id)!), replayed: false } }
          : await this.refused(f.message, answer.error).then(
              (result) => ({ result }),
              (error: unknown) => ({ error }),
            );
    }
    for (const i of alone) {
      out[i] = await this.send(inputs[i]).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
    }
    return out;
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
    const checked = await this.check(input);
    await this.assertNotOptedOut(input.workspaceId, input.channel, optOutAddress(input.channel, input.to));
    return this.compose(input, checked);
  }

  /** The sender and the template, as a send needs them (in the order of refusals of decisions.md 30). */
  private async check(input: SendMessageInput): Promise<Checked> {
    if (input.channel === 'WHATSAPP') {
      const found = await this.whatsappSenders.findForSend(input.workspaceId, input.senderId);
      if (!found) throw new AppError('not_found', { message: `no WhatsApp sender ${input.senderId}` });
      const sender = found.sender;
      if (sender.status !== 'CONNECTED') throw new AppError('invalid_request', { message: `WhatsApp sender ${input.senderId} is ${sender.status}, not CONNECTED` });
      const template = await this.whatsappTemplates.findById(input.workspaceId, input.templateId);
      if (!template) throw new AppError('template_not_found', { message: `no WhatsApp template ${input.templateId}` });
      if (template.status !== 'APPROVED') throw new AppError('template_not_approved', { message: `template ${template.name} is ${template.status}` });
      return { channel: 'WHATSAPP', sender, template, credentials: once(async () => found.reveal()) };
    }
    const sender = await this.emailSenders.findById(input.workspaceId, input.senderId);
    if (!sender) throw new AppError('not_found', { message: `no email sender ${input.senderId}` });
    const template = await this.emailTemplates.findById(input.workspaceId, input.templateId);
    if (!template) throw new AppError('template_not_found', { message: `no email template ${input.templateId}` });
    return { channel: 'EMAIL', sender, template, credentials: once(() => this.emailSenders.revealCredentials(input.workspaceId, sender.id)) };
  }

  /** The message, rendered for its recipient; the credentials are opened once per Checked. */
  private async compose(input: SendMessageInput, checked: Checked): Promise<{ message: MessageProps; via: Via }> {
    const address = optOutAddress(input.channel, input.to);
    const now = this.clock.now();
    const base = {
      id: timeOrderedUuid(now.getTime()),
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
    if (checked.channel === 'WHATSAPP') {
      const fields = checked.template.fields();
      const parameters = bindingValues(fields.bindings, input.variables);
      const content: MessageContent = { kind: 'whatsapp_template', templateName: fields.name, language: fields.language, parameters };
      const credentials = await checked.credentials();
      const message = { ...base, provider: whatsappProviderName(credentials), body: renderPlaceholders(fields.body, parameters), subject: null, content };
      return { message, via: { channel: 'WHATSAPP', sender: checked.sender, credentials } };
    }
    const fields = checked.template.toProps();
    const values = bindingValues(fields.bindings, input.variables);
    const content: MessageContent = {
      kind: 'email',
      subject: renderPlaceholders(fields.subject, values),
      html: fields.htmlBody === null ? null : renderPlaceholders(fields.htmlBody, values, { html: true }),
      text: fields.textBody === null ? null : renderPlaceholders(fields.textBody, values),
    };
    const credentials = await checked.credentials();
    const message = { ...base, provider: emailProviderName(credentials), body: content.text ?? content.html ?? '', subject: content.subject, content };
    return { message, via: { channel: 'EMAIL', sender: checked.sender, credentials } };
  }

  private async assertNotOptedOut(workspaceId: string, channel: MessageChannel, address: string): Promise<void> {
    if (await this.optOuts.isOptedOut(workspaceId, channel, address)) {
      throw new AppError('contact_opted_out', { message: `${address} opted out of ${channel} messages` });
    }
  }

  /** Asks the provider (no transaction open), then records what it answered. `via`: the checks' sender, on a first send. */
  private async deliver(message: MessageProps, via?: Via): Promise<SendMessageResult> {
    const answer = await this.events.holding([message.id], async () => {
      let providerMessageId: string;
      try {
        providerMessageId = await this.ask(message, via);
      } catch (error) {
        return { error };
      }
      return { sent: await this.recordAccepted(message.id, providerMessageId) };
    });
    if ('error' in answer) return this.refused(message, answer.error);
    return { outcome: 'sent', message: messageView(answer.sent), replayed: false };
  }

  /** The provider did not take the message: for now (the lease is given back), for good (FAILED), or an error of ours (thrown). */
  private async refused(message: MessageProps, error: unknown): Promise<SendMessageResult> {
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

  /**
   * The provider accepted the message with this id: one transaction records SENT (a report that
   * came first is kept) and debits one message (reference = the message id: never twice). Also
   * called by the intake when a status report names a message whose sender died before recording
   * it (33.16).
   */
  async recordAccepted(messageId: string, providerMessageId: string): Promise<MessageProps> {
    const [recorded] = await this.recordAcceptedMany([{ messageId, providerMessageId }]);
    return recorded;
  }

  /**
   * recordAccepted for several messages in one transaction (decisions.md 47.5): the messages locked
   * in id order and written in one statement, one debit per message written per workspace in one
   * statement (the wallet changed once, 47.11). Answers the messages as recorded, in the order given.
   */
  async recordAcceptedMany(accepted: ReadonlyArray<{ messageId: string; providerMessageId: string }>): Promise<MessageProps[]> {
    if (accepted.length === 0) return [];
    return this.uow.run(async () => {
      const found = new Map((await this.messages.findManyById(accepted.map((a) => a.messageId), { lock: true })).map((m) => [m.id, m]));
      const recorded = accepted.map(({ messageId, providerMessageId }) => {
        const current = found.get(messageId);
        if (!current) throw new Error(`message ${messageId} vanished while it was sent`);
        // A report may have come first (the sandbox answers at once): keep it, record the provider's id.
        applyProgress(current, { progress: 'sent', at: this.clock.now(), providerMessageId });
        current.sendStartedAt = null;
        return current;
      });
      await this.messages.updateMany(recorded);
      const byWorkspace = new Map<string, MessageProps[]>();
      for (const m of recorded) {
        const messages = byWorkspace.get(m.workspaceId);
        if (messages) messages.push(m);
        else byWorkspace.set(m.workspaceId, [m]);
      }
      for (const [workspaceId, messages] of byWorkspace) {
        const amountMinor = await this.tariffs.messageCostMinor(workspaceId);
        await this.debits.debitMany(
          messages.map((m) => ({
            workspaceId,
            amountMinor,
            kind: 'message' as const,
            reference: m.id,
            description: `${m.channel === 'WHATSAPP' ? 'WhatsApp' : 'Email'} message to ${m.address}`,
          })),
        );
      }
      return recorded;
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

/** One answer of sendMany: what `send` would have answered, or what it would have thrown. */
export type SendManyResult = { result: SendMessageResult } | { error: unknown };

/** What the checks read: the sender, the template, and the sender's credentials (opened once, when first needed). */
type Checked =
  | { channel: 'WHATSAPP'; sender: WhatsappSender; template: WhatsappTemplate; credentials: () => Promise<WhatsappCredentials | null> }
  | { channel: 'EMAIL'; sender: EmailSender; template: EmailTemplate; credentials: () => Promise<SmtpCredentials | null> };

/** A function run once; later calls answer its first promise. */
function once<T>(run: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | null = null;
  return () => (result ??= run());
}

/** The inputs' indexes grouped by workspace, channel, sender and template (the checks' reads are shared). */
function groupsOf(inputs: readonly SendMessageInput[]): number[][] {
  const groups = new Map<string, number[]>();
  for (const [i, input] of inputs.entries()) {
    const key = `${input.workspaceId}|${input.channel}|${input.senderId}|${input.templateId}`;
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  }
  return [...groups.values()];
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
