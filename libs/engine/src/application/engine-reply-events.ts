import { Injectable, OnModuleInit } from '@nestjs/common';
import { Outbox, UnitOfWork } from '@outreach/core';
import { MessageEvent, MessageEvents } from '@outreach/messaging';
import { replyRulesJob } from './engine-jobs';

/**
 * The engine's subscriber to messaging's MessageEvents (decisions.md 34.4): a reply to one of our
 * messages becomes a `outreach/reply-rules` job, judged by the campaigns' outreach rules in the
 * worker. It runs after messaging's own intake stored the reply; should writing the job fail, the
 * event's delivery fails and its webhook job runs again (the intake skips what it applied, this
 * subscriber writes the job; the job id keeps it single).
 */
@Injectable()
export class EngineReplyEvents implements OnModuleInit {
  constructor(
    private readonly events: MessageEvents,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
  ) {}

  onModuleInit(): void {
    this.events.subscribeMany((events) => this.onEvents(events));
  }

  /** The replies of a batch, their jobs written together. */
  async onEvents(events: readonly MessageEvent[]): Promise<void> {
    const jobs = events.flatMap((event) =>
      event.type === 'replied'
        ? [replyRulesJob({ messageId: event.messageId, provider: event.provider, replyId: event.eventId, text: event.text, at: event.at.toISOString() })]
        : [],
    );
    if (jobs.length > 0) await this.uow.run(() => this.outbox.enqueue(...jobs));
  }
}
