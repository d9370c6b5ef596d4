import { BullModule, getQueueToken, OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { isRetryLater } from '@outreach/core';
import { DelayedError, Job, Queue } from 'bullmq';
import { isDatabaseUnavailable } from '../database/database-errors';

/** How often one source may log the same kind of Redis trouble while BullMQ reconnects. */
export const REDIS_ERROR_LOG_INTERVAL_MS = 30_000;

/**
 * A warning logged at most once per interval. BullMQ emits an error for every failed reconnect
 * (several a second during a Redis outage); one line per 30 s says the same without the flood.
 */
export class RateLimitedLog {
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs = REDIS_ERROR_LOG_INTERVAL_MS,
  ) {}

  warn(message: string): boolean {
    const now = Date.now();
    if (now - this.last < this.intervalMs) return false;
    this.last = now;
    this.logger.warn(message);
    return true;
  }
}

/** A job that met an unreachable database waits this long before its next run, doubling each time… */
export const OUTAGE_FIRST_WAIT_MS = 500;
/** …up to this long, so work resumes within seconds of the database coming back. */
export const OUTAGE_MAX_WAIT_MS = 5_000;
/** Waits in a row after which a job counts its failures again (at most 5 s each: about 3 hours). */
export const OUTAGE_MAX_WAITS = 2_000;

/**
 * How long a job that failed with `error` waits before running again without spending one of its
 * attempts, or null when the failure is a real one (BullMQ's attempts and back-off apply):
 * - RetryLater: the use case's own delay (a call still in progress);
 * - the database unreachable (outage, failover, pool exhausted): a wait that doubles from 500 ms
 *   to 5 s, for as long as the outage lasts (decisions.md 2.7). A job's attempts are for its own
 *   failures; an outage is nobody's failure, and spending them would lose the job's work.
 */
export function waitBeforeRerun(job: Pick<Job, 'attemptsStarted' | 'attemptsMade'>, error: unknown): number | null {
  if (isRetryLater(error)) return Math.max(0, error.delayMs);
  if (!isDatabaseUnavailable(error)) return null;
  // Every run counts as started; only failed ones count as made: the rest were waits.
  const waits = Math.max(0, (job.attemptsStarted ?? 0) - (job.attemptsMade ?? 0) - 1);
  if (waits >= OUTAGE_MAX_WAITS) return null;
  return Math.min(OUTAGE_MAX_WAIT_MS, OUTAGE_FIRST_WAIT_MS * 2 ** Math.min(waits, 20));
}

/**
 * The base of every processor: a BullMQ WorkerHost whose worker-level errors (Redis gone, a
 * reconnect failing) are logged, rate-limited, instead of being dropped or thrown. Processors
 * implement `handle`; `process` re-runs a job later, without spending an attempt, when it asked
 * for that (RetryLater) or met an unreachable database (waitBeforeRerun).
 */
export abstract class QueueWorkerHost extends WorkerHost {
  protected readonly log: RateLimitedLog;
  private readonly outageLog: RateLimitedLog;

  protected constructor(private readonly queueName: string) {
    super();
    this.log = new RateLimitedLog(new Logger(`${queueName}-worker`));
    this.outageLog = new RateLimitedLog(new Logger(`${queueName}-worker`));
  }

  /** The job's work (a use case call); its result is the job's return value. */
  protected abstract handle(job: Job): Promise<unknown>;

  async process(job: Job, token?: string): Promise<unknown> {
    try {
      return await this.handle(job);
    } catch (error) {
      const waitMs = token === undefined ? null : waitBeforeRerun(job, error);
      if (waitMs === null) throw error;
      try {
        await job.moveToDelayed(Date.now() + waitMs, token);
      } catch {
        throw error; // Redis is gone too: an ordinary failure, BullMQ's retries apply
      }
      if (!isRetryLater(error)) this.outageLog.warn(`${this.queueName} jobs wait for the database: ${(error as Error).message}`);
      throw new DelayedError();
    }
  }

  @OnWorkerEvent('error')
  onWorkerError(error: Error): void {
    this.log.warn(`${this.queueName} worker: ${error.message}`);
  }
}

@Module({})
class WorkerQueuesModule {}

const WORKER_QUEUES = new Set<string>();

/** Every queue a loaded worker module consumes (declared with workerQueues), in declaration order. */
export function registeredWorkerQueues(): string[] {
  return [...WORKER_QUEUES];
}

/**
 * `BullModule.registerQueue` for a worker module's processors, with an error listener on each
 * registered Queue. Without one, BullMQ falls back to console.error and prints a stack trace for
 * every failed reconnect while Redis is down; with it, one rate-limited warning in the logs.
 */
export function workerQueues(...names: string[]): DynamicModule {
  for (const name of names) WORKER_QUEUES.add(name);
  const registered = BullModule.registerQueue(...names.map((name) => ({ name })));
  return {
    module: WorkerQueuesModule,
    imports: [registered],
    providers: names.map((name) => ({
      provide: `worker-queue-errors:${name}`,
      inject: [getQueueToken(name)],
      useFactory: (queue: Queue) => {
        const log = new RateLimitedLog(new Logger(`${name}-queue`));
        queue.on('error', (error: Error) => log.warn(`${name} queue: ${error.message}`));
        return log;
      },
    })),
    exports: [registered],
  };
}
