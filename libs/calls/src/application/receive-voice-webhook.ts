import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, Outbox, OutboxJob } from '@outreach/core';
import { IncomingCall, toWire, VoiceCallEvent, VoiceCallEventWire, VoiceWebhookReaders, WebhookNotAuthentic, WebhookReply } from '@outreach/telephony';
import { AnswerInboundCall, InboundAnswer } from './inbound/answer-inbound-call';
import { CallsJob, CallsQueue } from './calls.ports';

export interface ProviderEventPayload {
  event: VoiceCallEventWire;
}

/** The worker job that applies one provider event; its id names the event, so a redelivery while it waits is one job. */
export function providerEventJob(event: VoiceCallEvent): OutboxJob {
  const payload: ProviderEventPayload = { event: toWire(event) };
  const id = createHash('sha256').update(`${event.provider}\n${event.eventId}`).digest('hex').slice(0, 40);
  return { queue: CallsQueue.Calls, name: CallsJob.ProviderEvent, payload: { ...payload }, jobId: `voice-event-${id}` };
}

/**
 * POST /webhooks/voice/{provider} (decisions.md 16.24): the provider's reader verifies the signature
 * over the raw body before anything is stored (401 unauthorized otherwise, nothing written), then
 * each event becomes a job in the outbox, committed before the provider is answered 200: the worker
 * applies it (CallEventIntake, EngineCallEvents), skipping an event id applied before. The API
 * answers at once and a provider's retry of an event we stored is harmless. A request that offers
 * an inbound call (decisions.md 36.3) is answered by AnswerInboundCall, with what the provider must
 * be told (`reply`, Twilio's TwiML) when it expects instructions.
 */
@Injectable()
export class ReceiveVoiceWebhook {
  constructor(
    private readonly readers: VoiceWebhookReaders,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly inbound: AnswerInboundCall,
  ) {}

  async execute(
    provider: string,
    request: { headers: Readonly<Record<string, string | undefined>>; rawBody: Buffer | undefined; url: string },
  ): Promise<{ received: number; inbound?: Omit<InboundAnswer, 'reply'>; reply?: WebhookReply | null }> {
    const reader = this.readers.find(provider);
    if (!reader) throw new AppError('not_found', { message: `no voice provider "${provider}" sends webhooks here` });
    const webhook = { headers: request.headers, rawBody: request.rawBody ?? Buffer.alloc(0), url: request.url };
    let events: VoiceCallEvent[];
    let incoming: IncomingCall | null;
    try {
      incoming = await reader.readIncoming(webhook, this.clock.now());
      events = incoming ? [] : await reader.read(webhook, this.clock.now());
    } catch (error) {
      if (error instanceof WebhookNotAuthentic) throw new AppError('unauthorized', { message: `webhook not authentic: ${error.message}` });
      throw error;
    }
    if (incoming) {
      const { reply, ...answer } = await this.inbound.execute(incoming);
      return { received: 1, inbound: answer, reply };
    }
    if (events.length > 0) await this.outbox.enqueue(...events.map(providerEventJob));
    return { received: events.length };
  }
}
