import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { QueueProducer } from '../queue/queue-producer';
import { OutboxMessageEntity } from './outbox-message.entity';
import { outboxJobId } from './outbox';

const BATCH = 200;
const RETENTION_DAYS = 7;

/**
 * Worker side of the outbox: polls (every OUTBOX_POLL_MS) for undispatched rows, claims a batch
 * with FOR UPDATE SKIP LOCKED (so several workers share the work), adds each to BullMQ with
 * the row's jobId (default `outbox-<id>`) and marks it dispatched. If Redis is down the rows stay and are retried;
 * if the process dies between add and mark, the re-add is de-duplicated by the jobId and the
 * handler's own state checks.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;
  private lastCleanup = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly producer: QueueProducer,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .catch((err: Error) => this.logger.warn(`relay tick failed: ${err.message}`))
        .finally(() => {
          this.running = null;
          this.schedule(this.config.outboxPollMs);
        });
    }, delayMs);
  }

  /** Moves one batch; returns how many rows were dispatched. Public for tests. */
  async tick(): Promise<number> {
    const dispatched = await this.dataSource.transaction(async (manager) => {
      const rows: Array<Pick<OutboxMessageEntity, 'id' | 'queue' | 'name' | 'payload'> & { job_id: string | null }> = await manager.query(
        `SELECT id, queue, name, payload, job_id FROM outbox
          WHERE dispatched_at IS NULL
          ORDER BY created_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED`,
        [BATCH],
      );
      const done: string[] = [];
      let failure: Error | null = null;
      for (const row of rows) {
        try {
          await this.producer.add(row.queue, row.name, row.payload, row.job_id ?? outboxJobId(row.id));
          done.push(row.id);
        } catch (err) {
          failure = err as Error;
          break; // Redis is likely down: leave the rest for the next tick.
        }
      }
      if (done.length > 0) {
        await manager.query(`UPDATE outbox SET dispatched_at = now(), attempts = attempts + 1 WHERE id = ANY($1::uuid[])`, [done]);
      }
      if (failure) {
        const failedId = rows[done.length].id;
        await manager.query(`UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1`, [failedId, failure.message.slice(0, 500)]);
        this.logger.warn(`could not enqueue outbox rows (${rows.length - done.length} left): ${failure.message}`);
      }
      return done.length;
    });
    await this.cleanup();
    return dispatched;
  }

  private async cleanup(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanup < 3600_000) return;
    this.lastCleanup = now;
    await this.dataSource.query(
      `DELETE FROM outbox WHERE dispatched_at < now() - make_interval(days => $1)`,
      [RETENTION_DAYS],
    );
  }
}
