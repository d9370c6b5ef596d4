import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Clock, RetryLater, timeOrderedUuid, UnitOfWork } from '@outreach/core';
import { applyProgress, MessageProps } from '../domain/message';
import { isOptOutKeyword, MessageChannel, optOutAddress } from '../domain/opt-out';
import { MessageEvent, MessageEvents } from './message-provider.port';
import { MessageRepository, OptOutRepository, WhatsappSenderRepository } from './messaging.ports';
import type { ProviderReport } from './provider-reports';
import { SendMessage } from './send-message';

/** A report about a message we cannot find yet is retried this long (its SENT record may still be committing). */
export const UNKNOWN_MESSAGE_PATIENCE_MS = 10 * 60_000;

/** An unquoted reply answers the sender's latest message to its author written this long before it, at most (decisions.md 33.20). */
export const UNQUOTED_REPLY_WINDOW_MS = 7 * 24 * 3_600_000;

/**
 * Applies what providers report about messages (decisions.md 30.14), each effect once whatever
 * the report's repeats (47.19): progress of outbound messages (forward only), replies stored as
 * inbound messages (once per provider id), and opt-outs (a STOP-style reply, an email complaint).
 * It is the first subscriber of MessageEvents (in-process providers such as the sandbox deliver
 * there), and the worker's webhook job hands it the reports read from a provider's webhook
 * (`applyReport`), which it turns into MessageEvents for every subscriber.
 */
@Injectable()
export class MessageEventIntake implements OnModuleInit {
  private readonly logger = new Logger('MessageEventIntake');

  constructor(
    private readonly messages: MessageRepository,
    private readonly optOuts: OptOutRepository,
    private readonly whatsappSenders: WhatsappSenderRepository,
    private readonly events: MessageEvents,
    private readonly sendMessage: SendMessage,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.events.subscribeMany((events) => this.applyMany(events));
  }

  /**
   * Events about our outbound messages (a message's in the order they happened,
   * MessageEvents.subscribeMany), in one transaction, each applied in turn to the message as the
   * ones before it left it: the messages locked in one statement, the changed ones written in one,
   * the replies stored in one and the opt-outs (complaints, STOP-style replies) recorded in one
   * (decisions.md 47.3). An event applied before changes nothing, by what it does (decisions.md
   * 47.19): progress only moves forward, a reply is stored once under its provider id, and an
   * address is opted out once.
   */
  async applyMany(events: readonly MessageEvent[]): Promise<void> {
    await this.uow.run(async () => {
      const messages = new Map((await this.messages.findManyById(events.map((e) => e.messageId), { lock: true })).map((m) => [m.id, m]));
      const changed = new Set<MessageProps>();
      const complaints: Array<{ workspaceId: string; channel: MessageChannel; address: string; source: string; at: Date }> = [];
      const replies: InboundInput[] = [];
      for (const event of events) {
        const message = messages.get(event.messageId);
        if (!message) continue;
        switch (event.type) {
          case 'delivered':
          case 'read':
            if (applyProgress(message, { progress: event.type, at: event.at })) changed.add(message);
            break;
          case 'failed':
          case 'bounced':
            // A soft bounce or a temporary failure is not the message's end: the provider tries again.
            if (event.permanent && applyProgress(message, { progress: 'failed', at: event.at, reason: `${event.type}: ${event.reason}` })) changed.add(message);
            break;
          case 'complained':
            complaints.push({ workspaceId: message.workspaceId, channel: message.channel, address: message.address, source: 'complaint', at: event.at });
            break;
          case 'replied':
            replies.push({
              workspaceId: message.workspaceId,
              channel: message.channel,
              senderId: message.senderId,
              provider: event.provider,
              providerMessageId: event.eventId,
              from: message.address,
              text: event.text,
              inReplyToId: message.id,
              at: event.at,
            });
        }
      }
      await this.messages.updateMany([...changed]);
      await this.optOutMany(complaints);
      await this.storeInboundMany(replies);
    });
  }

  /**
   * A report read from a provider's webhook for `senderId` (the worker's job). Reports about a
   * message become MessageEvents delivered to every subscriber; an inbound message that answers
   * none of ours is stored here. A report about a message we do not know (yet) waits a little
   * (RetryLater) and is then dropped. A sender only reports about its own messages.
   */
  async applyReport(senderId: string, report: ProviderReport): Promise<void> {
    const at = new Date(report.at);
    if (report.type === 'inbound') {
      const replied = await this.answered(senderId, report, at);
      if (replied) {
        const base = { provider: report.provider, eventId: report.providerMessageId, messageId: replied.id, providerMessageId: replied.providerMessageId as string, at };
        return this.events.deliver({ ...base, channel: 'WHATSAPP', type: 'replied', text: report.text });
      }
      const sender = await this.whatsappSenders.findAnyById(senderId);
      if (!sender) return;
      await this.uow.run(async () => {
        await this.storeInboundMany([{
          workspaceId: sender.workspaceId,
          channel: report.channel,
          senderId,
          provider: report.provider,
          providerMessageId: report.providerMessageId,
          from: report.from,
          text: report.text,
          inReplyToId: null,
          at,
        }]);
      });
      return;
    }
    const message =
      (await this.messages.findByProviderMessageId(report.channel, report.provider, report.providerMessageId)) ??
      (await this.adopt(senderId, report));
    if (!message || message.senderId !== senderId) {
      if (this.clock.now().getTime() - at.getTime() < UNKNOWN_MESSAGE_PATIENCE_MS) {
        throw new RetryLater(5_000, `no message ${report.providerMessageId} of sender ${senderId} yet`);
      }
      this.logger.warn(`dropped ${report.provider} report ${report.eventId}: no message ${report.providerMessageId} of sender ${senderId}`);
      return;
    }
    const base = { provider: report.provider, eventId: report.eventId, messageId: message.id, providerMessageId: report.providerMessageId, at };
    const event: MessageEvent | null =
      report.type === 'status'
        ? report.status === 'sent'
          ? null // we record SENT ourselves when the provider accepts the message
          : report.status === 'failed'
            ? { ...base, channel: report.channel, type: 'failed', permanent: true, reason: report.reason ?? 'failed' }
            : { ...base, channel: report.channel, type: report.status }
        : report.type === 'bounce'
          ? { ...base, channel: report.channel, type: 'bounced', permanent: report.permanent, reason: report.reason }
          : { ...base, channel: report.channel, type: 'complained', permanent: true, reason: report.reason };
    if (event) await this.events.deliver(event);
  }

  /**
   * The outbound message an inbound one answers: the one it quotes (the Cloud API's `context.id`),
   * else — a WhatsApp user typing a reply without quoting, the common case — the latest message this
   * sender sent to its author within UNQUOTED_REPLY_WINDOW_MS before it (decisions.md 33.20). Only
   * a message of this sender to this address: a sender never answers for another's messages.
   */
  private async answered(senderId: string, report: Extract<ProviderReport, { type: 'inbound' }>, at: Date): Promise<MessageProps | null> {
    const address = optOutAddress(report.channel, report.from);
    if (report.inReplyTo) {
      const quoted = await this.messages.findByProviderMessageId(report.channel, report.provider, report.inReplyTo);
      if (quoted && quoted.senderId === senderId && quoted.address === address) return quoted;
    }
    return this.messages.latestSentTo(senderId, report.channel, address, new Date(at.getTime() - UNQUOTED_REPLY_WINDOW_MS));
  }

  /**
   * A report naming our message id (Graph's `biz_opaque_callback_data`, an email's Message-ID) for a
   * message that has no provider id yet: its sender died after the provider accepted it and before
   * SENT was recorded (decisions.md 33.16). The report proves the acceptance, so the message is
   * recorded SENT under the reported id (and billed, once) here; a retake waiting for this report
   * then finds it sent and sends nothing. A report about a second copy (the message already has
   * another provider id) adopts nothing.
   */
  private async adopt(senderId: string, report: Exclude<ProviderReport, { type: 'inbound' }>): Promise<MessageProps | null> {
    if (!report.ourMessageId) return null;
    const named = await this.messages.findById(report.ourMessageId);
    if (!named || named.direction !== 'OUTBOUND' || named.senderId !== senderId || named.channel !== report.channel || named.provider !== report.provider) return null;
    if (named.providerMessageId !== null || named.status !== 'QUEUED') return null;
    const adopted = await this.sendMessage.recordAccepted(named.id, report.providerMessageId);
    if (adopted.providerMessageId !== report.providerMessageId) return null;
    this.logger.log(`message ${named.id} adopted from ${report.provider} report ${report.eventId}: accepted as ${report.providerMessageId} before its sender recorded it`);
    return adopted;
  }

  /** Inbound messages stored in one statement (a redelivered one is skipped); a STOP-style one opts its sender out. */
  private async storeInboundMany(inputs: readonly InboundInput[]): Promise<void> {
    if (inputs.length === 0) return;
    const now = this.clock.now();
    const inbound: MessageProps[] = inputs.map((input) => ({
      id: timeOrderedUuid(now.getTime()),
      workspaceId: input.workspaceId,
      channel: input.channel,
      direction: 'INBOUND',
      status: 'RECEIVED',
      senderId: input.senderId,
      templateId: null,
      address: optOutAddress(input.channel, input.from),
      body: input.text,
      subject: null,
      content: null,
      idempotencyKey: null,
      provider: input.provider,
      providerMessageId: input.providerMessageId,
      inReplyToId: input.inReplyToId,
      failureReason: null,
      sendStartedAt: null,
      createdAt: input.at,
      sentAt: null,
      deliveredAt: null,
      readAt: null,
      failedAt: null,
      updatedAt: now,
    }));
    const stored = await this.messages.insertInboundMany(inbound);
    await this.optOutMany(
      inbound
        .filter((m) => stored.has(m.id) && isOptOutKeyword(m.body))
        .map((m) => ({ workspaceId: m.workspaceId, channel: m.channel, address: m.address, source: 'reply', at: m.createdAt })),
    );
  }

  private async optOutMany(entries: ReadonlyArray<{ workspaceId: string; channel: MessageChannel; address: string; source: string; at: Date }>): Promise<void> {
    if (entries.length === 0) return;
    const recorded = await this.optOuts.recordMany(entries.map((e) => ({ ...e, address: optOutAddress(e.channel, e.address) })));
    for (const entry of recorded) this.logger.log(`${entry.channel} opt-out recorded (${entry.source})`);
  }
}

/** An inbound message as a report carries it. */
interface InboundInput {
  workspaceId: string;
  channel: MessageChannel;
  senderId: string;
  provider: string;
  providerMessageId: string;
  from: string;
  text: string;
  inReplyToId: string | null;
  at: Date;
}
