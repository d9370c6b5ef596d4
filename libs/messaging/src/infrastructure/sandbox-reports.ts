import { Logger } from '@nestjs/common';
import { Clock } from '@outreach/core';
import { MessageEvent, MessageEvents } from '../application/message-provider.port';

/**
 * How the sandbox providers deliver the reports of the messages they accepted (decisions.md 47.2,
 * 47.18): every message accepted in one turn of the event loop has all its reports delivered in
 * one batch, each message's in the order they happen (its `delivered` before its `read`, its
 * `read` before its reply). A zero-latency provider has nothing between them, so they arrive
 * together and are applied together: one transaction per subscriber for the turn. A message
 * reported twice in one turn (sent twice) has its second set in the next batch. A batch that
 * fails is delivered again one report at a time, so one bad report never drops the others'. `at`
 * is the clock's time at delivery.
 */
export class SandboxReports {
  private pending: Array<{ messageId: string; build: (at: Date) => MessageEvent[] }> = [];
  private scheduled = false;

  constructor(
    private readonly events: MessageEvents,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Queues one message's reports (built at delivery time); nothing is queued while nobody listens. */
  report(messageId: string, build: (at: Date) => MessageEvent[]): void {
    if (!this.events.hasSubscribers) return;
    this.pending.push({ messageId, build });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    this.scheduled = false;
    const at = this.clock.now();
    // Groups of distinct messages, in the order reported.
    const groups: MessageEvent[][][] = [];
    let seen = new Set<string>();
    for (const { messageId, build } of pending) {
      if (groups.length === 0 || seen.has(messageId)) {
        groups.push([]);
        seen = new Set();
      }
      seen.add(messageId);
      groups[groups.length - 1].push(build(at));
    }
    for (const group of groups) await this.deliverTogether(group);
  }

  private async deliverTogether(perMessage: MessageEvent[][]): Promise<void> {
    const batch = perMessage.flat();
    if (batch.length === 0) return;
    try {
      await this.events.deliverMany(batch);
    } catch (error) {
      if (batch.length === 1) {
        this.logger.warn(`sandbox event ${batch[0].eventId} not applied: ${(error as Error).message}`);
        return;
      }
      for (const event of batch) {
        try {
          await this.events.deliver(event);
        } catch (single) {
          this.logger.warn(`sandbox event ${event.eventId} not applied: ${(single as Error).message}`);
        }
      }
    }
  }
}
