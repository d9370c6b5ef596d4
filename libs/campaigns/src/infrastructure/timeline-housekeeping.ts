import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { RepeatingTask } from '@outreach/platform';
import { ContactTimeline } from '../application/contact-timeline';

/** How often a worker deletes timeline events past TIMELINE_RETENTION_DAYS. */
export const TIMELINE_HOUSEKEEPING_EVERY_MS = 3600_000;

/**
 * The worker's clean-up of contact timelines (decisions.md 29.3), shortly after boot and then
 * hourly: events older than TIMELINE_RETENTION_DAYS go, like results past their retention. Every
 * worker runs it; the deletes are idempotent.
 */
@Injectable()
export class TimelineHousekeeping implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TimelineHousekeeping');
  private readonly loop = new RepeatingTask(
    () => this.run(),
    () => TIMELINE_HOUSEKEEPING_EVERY_MS,
    (error) => this.logger.warn(`timeline housekeeping failed: ${error.message}`),
  );

  constructor(private readonly timeline: ContactTimeline) {}

  onApplicationBootstrap(): void {
    this.loop.start(15_000);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** One pass; public for tests and operators. */
  async run(): Promise<{ timelineEventsPurged: number }> {
    const timelineEventsPurged = await this.timeline.purgeExpired();
    if (timelineEventsPurged > 0) this.logger.log({ timelineEventsPurged }, 'timeline housekeeping');
    return { timelineEventsPurged };
  }
}
