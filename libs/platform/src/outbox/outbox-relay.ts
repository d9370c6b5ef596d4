import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '@outreach/core';
import { takeTraceContext } from '@outreach/telemetry';
import { JobToAdd, QueueProducer, QueueTimeoutError, traceJobOptions } from '../queue/queue-producer';
import { RateLimitedLog } from '../queue/queue-worker';
import { RepeatingTask } from '../scheduling/repeating-task';
import { outboxJobId } from './outbox';
import { OUTBOX, OutboxMessage } from './outbox-message.table';

const BATCH = 200;
/** A row refused on its own waits 2^attempts seconds before its next try, at most this long. */
const MAX_ROW_BACKOFF_SECS = 300;

/** What the relay reads of a claimed row. */
const PENDING = ['id', 'queue', 'name', 'payload', 'jobId', 'attempts'] as const;
type PendingRow = Pick<OutboxMessage, (typeof PENDING)[number]>;
const o = OUTBOX.c;
type RowFailure = { row: PendingRow; error: Error };

/**
 * Worker side of the outbox: polls (every OUTBOX_POLL_MS) for undispatched rows, claims a batch
 * with FOR UPDATE SKIP LOCKED (so several workers share the work), adds them to BullMQ, one
 * round trip per queue, with each row's jobId (default `outbox-<id>`), and marks them
 * dispatched. If Redis is down the rows stay and are retried on the next tick; if the process
 * dies between add and mark, the re-add is de-duplicated by the jobId and the handler's own
 * state checks. A row that Redis refuses while it accepts the others (a poison row) is set aside
 * with a growing retry_at, so it never holds up the rows behind it.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  /** During an outage (Redis or Postgres) every tick fails alike: one warning per 30 s says so. */
  private readonly outageLog = new RateLimitedLog(this.logger);
  private readonly loop = new RepeatingTask(
    () => this.tick(),
    () => this.config.outboxPollMs,
    (err) => this.outageLog.warn(`relay tick failed: ${err.message}`),
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly producer: QueueProducer,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start(0);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** Relay now rather than at the next poll (a NOTIFY outbox arrived). */
  wake(): void {
    this.loop.wake();
  }

  /** Moves one batch; returns how many rows were dispatched. Public for tests. */
  async tick(): Promise<number> {
    const dispatched = await this.dataSource.transaction(async (manager) => {
      const claimed: Array<Record<string, unknown>> = await manager.query(
        `SELECT ${OUTBOX.select(undefined, PENDING)} FROM ${OUTBOX.name}
          WHERE ${o.dispatchedAt} IS NULL AND (${o.retryAt} IS NULL OR ${o.retryAt} <= now())
          ORDER BY ${o.createdAt}
          LIMIT $1
          FOR UPDATE SKIP LOCKED`,
        [BATCH],
      );
      const rows: PendingRow[] = claimed.map((row) => OUTBOX.fromRow(row, PENDING));
      const { done, refused, unreachable } = await this.enqueue(rows);
      if (done.length > 0) {
        await manager.query(
          `UPDATE ${OUTBOX.name} SET ${o.dispatchedAt} = now(), ${o.attempts} = ${o.attempts} + 1, ${o.retryAt} = NULL WHERE ${o.id} = ANY($1::uuid[])`,
          [done],
        );
      }
      for (const { row, error } of refused) {
        const backoffSecs = Math.min(2 ** (row.attempts + 1), MAX_ROW_BACKOFF_SECS);
        await manager.query(
          `UPDATE ${OUTBOX.name} SET ${o.attempts} = ${o.attempts} + 1, ${o.lastError} = $2, ${o.retryAt} = now() + make_interval(secs => $3)
            WHERE ${o.id} = $1`,
          [row.id, error.message.slice(0, 500), backoffSecs],
        );
        this.logger.warn(`outbox row ${row.id} (${row.queue}/${row.name}) refused, next try in ${backoffSecs} s: ${error.message}`);
      }
      if (unreachable) {
        // Redis is down: no row is at fault, so none is set aside; the first one records why.
        await manager.query(`UPDATE ${OUTBOX.name} SET ${o.attempts} = ${o.attempts} + 1, ${o.lastError} = $2 WHERE ${o.id} = $1`, [
          unreachable.row.id,
          unreachable.error.message.slice(0, 500),
        ]);
        this.outageLog.warn(`could not enqueue outbox rows (${rows.length - done.length} left): ${unreachable.error.message}`);
      }
      return done.length;
    });
    return dispatched;
  }

  /**
   * One addBulk per queue. When a bulk is refused, a cheap read tells why: Redis unreachable →
   * stop and leave everything for the next tick; Redis answering → some row is at fault, so that
   * queue's rows are added one by one and only the refused ones are set aside.
   */
  private async enqueue(rows: PendingRow[]): Promise<{ done: string[]; refused: RowFailure[]; unreachable: RowFailure | null }> {
    const done: string[] = [];
    const refused: RowFailure[] = [];
    const byQueue = new Map<string, PendingRow[]>();
    for (const row of rows) byQueue.set(row.queue, [...(byQueue.get(row.queue) ?? []), row]);
    for (const [queue, group] of byQueue) {
      try {
        await this.producer.addBulk(queue, group.map(toJob));
        done.push(...group.map((r) => r.id));
        continue;
      } catch (error) {
        if (!(await this.rowAtFault(queue, error))) return { done, refused, unreachable: { row: group[0], error: error as Error } };
      }
      for (const row of group) {
        try {
          const job = toJob(row);
          await this.producer.add(queue, job.name, job.payload, job.jobId, traceJobOptions(job.telemetryMetadata));
          done.push(row.id);
        } catch (error) {
          if (!(await this.rowAtFault(queue, error))) return { done, refused, unreachable: { row, error: error as Error } };
          refused.push({ row, error: error as Error });
        }
      }
    }
    return { done, refused, unreachable: null };
  }

  /** A refusal is the rows' fault only when Redis answered in time and still answers now. */
  private async rowAtFault(queue: string, error: unknown): Promise<boolean> {
    return !(error instanceof QueueTimeoutError) && (await this.producer.reachable(queue));
  }
}

/** The row as a job: its trace context, if it has one, leaves the payload for the job's telemetry metadata. */
function toJob(row: PendingRow): JobToAdd {
  const { data, telemetryMetadata } = takeTraceContext(row.payload);
  return { name: row.name, payload: data, jobId: row.jobId ?? outboxJobId(row.id), telemetryMetadata };
}
