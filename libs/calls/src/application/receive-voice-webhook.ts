import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, Outbox, OutboxJob } from '@outreach/core';
import { toWire, VoiceCallEvent, VoiceCallEventWire, VoiceWebhookReaders, WebhookNotAuthentic } from '@outreach/telephony';
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
 * answers at once and a provider's retry of an event we stored is harmless.
 */
@Injectable()
export class ReceiveVoiceWebhook {
  constructor(
    private readonly readers: VoiceWebhookReaders,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async execute(
    provider: string,
    request: { headers: Readonly<Record<string, string | undefined>>; rawBody: Buffer | undefined; url: string },
  ): Promise<{ received: number }> {
    const reader = this.readers.find(provider);
    if (!reader) throw new AppError('not_found', { message: `no voice provider "${provider}" sends webhooks here` });
    let events: VoiceCallEvent[];
    try {
      events = await reader.read({ headers: request.headers, rawBody: request.rawBody ?? Buffer.alloc(0), url: request.url }, this.clock.now());
    } catch (error) {
      if (error instanceof WebhookNotAuthentic) throw new AppError('unauthorized', { message: `webhook not authentic: ${error.message}` });
      throw error;
    }
    if (events.length > 0) await this.outbox.enqueue(...events.map(providerEventJob));
    return { received: events.length };
  }
}
