import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '@outreach/core';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { OUTBOX } from '../outbox/outbox-message.table';
import { RepeatingTask } from '../scheduling/repeating-task';

/** How often the worker clears what the platform keeps only for a while. */
export const PLATFORM_HOUSEKEEPING_EVERY_MS = 3600_000;
/** Dispatched outbox rows are kept this long (to look into), then deleted. */
export const OUTBOX_RETENTION_DAYS = 7;

export interface PlatformHousekeepingReport {
  idempotencyKeysPurged: number;
  outboxRowsPurged: number;
}

/**
 * The worker's clean-up of platform tables, once shortly after boot and then hourly: expired
 * Idempotency-Key records (past their 24 h) and dispatched outbox rows older than 7 days. Every
 * worker runs it; the deletes are idempotent, so several workers only repeat each other.
 */
@Injectable()
export class PlatformHousekeeping implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PlatformHousekeeping');
  private readonly loop = new RepeatingTask(
    () => this.runAndReport(),
    () => PLATFORM_HOUSEKEEPING_EVERY_MS,
    (error) => this.logger.warn(`platform housekeeping failed: ${error.message}`),
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly idempotency: IdempotencyStore,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start(10_000);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** One pass; public for tests and operators. */
  async run(): Promise<PlatformHousekeepingReport> {
    const now = this.clock.now();
    const idempotencyKeysPurged = await this.idempotency.purgeExpired(now);
    const cutoff = new Date(now.getTime() - OUTBOX_RETENTION_DAYS * 24 * 3600_000);
    const [, outboxRowsPurged]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM ${OUTBOX.name} WHERE ${OUTBOX.c.dispatchedAt} < $1`,
      [cutoff],
    );
    return { idempotencyKeysPurged, outboxRowsPurged };
  }

  private async runAndReport(): Promise<void> {
    const report = await this.run();
    if (report.idempotencyKeysPurged + report.outboxRowsPurged > 0) this.logger.log(report, 'platform housekeeping');
  }
}
