import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { JobsOptions, Queue } from 'bullmq';
import { AppConfig } from '@outreach/core';
import { bullmqTelemetry } from '@outreach/telemetry';
import { redisOptions } from '../redis/redis.module';

export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  // Kept long enough for jobId de-duplication to matter; handlers re-check state anyway.
  removeOnComplete: { age: 24 * 3600, count: 100000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** BullMQ's key prefix for this deployment (REDIS_PREFIX), shared by producers and workers. */
export function bullPrefix(config: AppConfig): string {
  return `${config.redisPrefix}:bull`;
}

/** One job of an addBulk. */
export interface JobToAdd {
  name: string;
  payload: unknown;
  jobId: string;
  /** Run it this many milliseconds from now (a delayed job). */
  delay?: number;
  /** Trace context the job continues (BullMQ telemetry metadata: the JSON of W3C headers). */
  telemetryMetadata?: string | null;
}

/** Job options that make a job continue the trace in `metadata` (none without one). */
export function traceJobOptions(metadata: string | null | undefined): Pick<JobsOptions, 'telemetry'> {
  return metadata ? { telemetry: { metadata } } : {};
}

/** Longest an add() may take before the caller (the outbox relay) gives up and retries later. */
export const ENQUEUE_TIMEOUT_MS = 2000;

/** A Queue replaced after a failure is kept at least this long before it may be replaced again. */
const MIN_QUEUE_AGE_BEFORE_REPLACE_MS = 1000;

/**
 * Producer side of BullMQ: one Queue per name, on connections that fail fast when Redis is
 * unreachable (no offline queue), so the outbox relay notices and retries later. Every add goes
 * through this class (add, addBulk), so the following holds for all of them.
 *
 * Fault drills (test/platform/outbox.e2e-spec.ts, test/reliability/redis-drill.e2e-spec.ts)
 * showed three ways a producer could stop working:
 * - a Queue first used while Redis is down waits for the connection to become ready (BullMQ's
 *   waitUntilReady ignores errors);
 * - a connection that went silent (black hole) never answers;
 * - a Queue whose connection drops a few milliseconds after its first command fails for good:
 *   BullMQ keeps the rejected initialisation and answers every later call with the same
 *   "max retries per request" error, with Redis healthy again.
 * Hence the deadline on every call, a socket timeout that drops a silent connection so ioredis
 * reconnects, and a Queue that failed (other than by the deadline) is closed and replaced by a
 * new one on the next call. A job that still lands after the deadline is harmless: the relay's
 * retry re-adds it with the same jobId, which BullMQ de-duplicates.
 */
@Injectable()
export class QueueProducer implements OnApplicationShutdown {
  private readonly queues = new Map<string, { queue: Queue; createdAt: number }>();

  constructor(private readonly config: AppConfig) {}

  /** The Queue of that name, for reads and tests; adds go through add() and addBulk(). */
  queue(name: string): Queue {
    let entry = this.queues.get(name);
    if (!entry) {
      const queue = new Queue(name, {
        prefix: bullPrefix(this.config),
        connection: redisOptions(this.config, {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          commandTimeout: ENQUEUE_TIMEOUT_MS,
          socketTimeout: ENQUEUE_TIMEOUT_MS,
        }),
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
        telemetry: bullmqTelemetry(),
      });
      queue.on('error', () => undefined); // connection errors surface on the calls; callers retry
      entry = { queue, createdAt: Date.now() };
      this.queues.set(name, entry);
    }
    return entry.queue;
  }

  /**
   * Adds one job (idempotent by jobId); rejects within ENQUEUE_TIMEOUT_MS when Redis does not
   * answer. `options` may delay it or change its retention.
   */
  async add(queueName: string, jobName: string, payload: unknown, jobId: string, options: Omit<JobsOptions, 'jobId'> = {}): Promise<void> {
    await this.use(queueName, `Redis did not accept job ${jobId} on ${queueName}`, (queue) =>
      queue.add(jobName, payload, { ...options, jobId }),
    );
  }

  /**
   * Adds several jobs to one queue in one round trip (each idempotent by its jobId). All or
   * nothing as far as the caller knows: on a rejection, none is known to have been added.
   */
  async addBulk(queueName: string, jobs: ReadonlyArray<JobToAdd>): Promise<void> {
    if (jobs.length === 0) return;
    await this.use(queueName, `Redis did not accept ${jobs.length} jobs on ${queueName}`, (queue) =>
      queue.addBulk(
        jobs.map((j) => ({
          name: j.name,
          data: j.payload,
          opts: { jobId: j.jobId, ...(j.delay === undefined ? {} : { delay: j.delay }), ...traceJobOptions(j.telemetryMetadata) },
        })),
      ),
    );
  }

  /** Whether Redis answers this queue's connection now (one cheap read within ENQUEUE_TIMEOUT_MS). */
  async reachable(queueName: string): Promise<boolean> {
    return this.use(queueName, 'Redis did not answer', (queue) => queue.getJobCountByTypes('waiting')).then(
      () => true,
      () => false,
    );
  }

  private async use<T>(queueName: string, what: string, call: (queue: Queue) => Promise<T>): Promise<T> {
    const queue = this.queue(queueName);
    try {
      return await withDeadline(call(queue), what);
    } catch (error) {
      if (!(error instanceof QueueTimeoutError)) this.replace(queueName, queue);
      throw error;
    }
  }

  /** Drops a Queue that failed, so the next call builds a new one (its connection and its state). */
  private replace(name: string, queue: Queue): void {
    const entry = this.queues.get(name);
    if (!entry || entry.queue !== queue || Date.now() - entry.createdAt < MIN_QUEUE_AGE_BEFORE_REPLACE_MS) return;
    this.queues.delete(name);
    void withDeadline(queue.close(), 'closing a replaced queue').catch(() => queue.disconnect().catch(() => undefined));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.queues.values()].map(({ queue }) => queue.close().catch(() => undefined)));
  }
}

/** Redis did not answer within ENQUEUE_TIMEOUT_MS: it is unreachable or silent, whatever the job. */
export class QueueTimeoutError extends Error {
  override readonly name = 'QueueTimeoutError';
}

/** The work's result, or a QueueTimeoutError after ENQUEUE_TIMEOUT_MS (a late failure is then of no interest). */
async function withDeadline<T>(work: Promise<T>, what: string): Promise<T> {
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new QueueTimeoutError(`${what} within ${ENQUEUE_TIMEOUT_MS} ms`)), ENQUEUE_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
