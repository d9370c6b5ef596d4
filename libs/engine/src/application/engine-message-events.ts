import { Injectable, OnModuleInit } from '@nestjs/common';
import { MessageEvent, MessageEvents } from '@outreach/messaging';
import { MessageAttempt } from './message-attempt';

/**
 * Reports that end a leg's wait: the message arrived, or it never will. `read` comes after
 * `delivered` (a read without a delivery report is left to the maintenance, decisions.md 47.17).
 */
const SETTLING = new Set<MessageEvent['type']>(['delivered', 'failed', 'bounced']);

/**
 * The engine's part of a message report (decisions.md 33): a report that the message of a leg
 * arrived or failed for good settles the leg at once (MessageAttempt.reportedMany, which reads the
 * message again: messaging's intake, the first subscriber, has applied the report by then).
 * Replies and complaints are messaging's (and the reply rules'); a soft bounce changes nothing.
 */
@Injectable()
export class EngineMessageEvents implements OnModuleInit {
  constructor(
    private readonly events: MessageEvents,
    private readonly attempts: MessageAttempt,
  ) {}

  onModuleInit(): void {
    // A batch of reports settles its legs in one transaction (decisions.md 47.4).
    this.events.subscribeMany(async (events) => {
      const settling = events.filter((event) => SETTLING.has(event.type) && !((event.type === 'failed' || event.type === 'bounced') && !event.permanent));
      // A batch may hold several reports about one message (its delivery, then its failure): the leg settles once, from the message as it stands.
      if (settling.length > 0) await this.attempts.reportedMany([...new Set(settling.map((event) => event.messageId))]);
    });
  }
}
