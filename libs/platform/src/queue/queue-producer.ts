import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { JobsOptions, Queue } from 'bullmq';
import { AppConfig } from '../config/app-config';
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

/** Longest an add() may take before the caller (the outbox relay) gives up and retries later. */
export const ENQUEUE_TIMEOUT_MS = 2000;

/**
 * Producer side of BullMQ: one Queue per name, on connections that fail fast when Redis is
 * unreachable (no offline queue), so the outbox relay notices and retries later.
 *
 * Fault drills (test/platform/outbox.e2e-spec.ts) showed two ways an add() could wait forever:
 * a Queue first used while Redis is down waits for the connection to become ready (BullMQ's
 * waitUntilReady ignores errors), and a connection that went silent (black hole) never answers.
 * Hence the deadline on add(), and a socket timeout that drops a silent connection so ioredis
 * reconnects instead of keeping it for good. A job that still lands after the deadline is
 * harmless: the relay's retry re-adds it with the same jobId, which BullMQ de-duplicates.
 */
@Injectable()
export class QueueProducer implements OnApplicationShutdown {
  private readonly queues = new Map<string, Queue>();

  constructor(private readonly config: AppConfig) {}

  queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, {
        prefix: bullPrefix(this.config),
        connection: redisOptions(this.config, {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          commandTimeout: ENQUEUE_TIMEOUT_MS,
          socketTimeout: ENQUEUE_TIMEOUT_MS,
        }),
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
      });
      queue.on('error', () => undefined); // connection errors surface on add(); the relay retries
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Adds one job (idempotent by jobId); rejects within ENQUEUE_TIMEOUT_MS when Redis does not answer. */
  async add(queueName: string, jobName: string, payload: unknown, jobId: string): Promise<void> {
    await withDeadline(this.queue(queueName).add(jobName, payload, { jobId }), `Redis did not accept job ${jobId} on ${queueName}`);
  }

  /**
   * Adds several jobs to one queue in one round trip (each idempotent by its jobId). All or
   * nothing as far as the caller knows: on a rejection, none is known to have been added.
   */
  async addBulk(queueName: string, jobs: ReadonlyArray<{ name: string; payload: unknown; jobId: string }>): Promise<void> {
    if (jobs.length === 0) return;
    const adding = this.queue(queueName).addBulk(jobs.map((j) => ({ name: j.name, data: j.payload, opts: { jobId: j.jobId } })));
    await withDeadline(adding, `Redis did not accept ${jobs.length} jobs on ${queueName}`);
  }

  /** Whether Redis answers this queue's connection now (one cheap read within ENQUEUE_TIMEOUT_MS). */
  async reachable(queueName: string): Promise<boolean> {
    return withDeadline(this.queue(queueName).getJobCountByTypes('waiting'), 'Redis did not answer').then(
      () => true,
      () => false,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close().catch(() => undefined)));
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
