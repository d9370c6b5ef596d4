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
    const adding = this.queue(queueName).add(jobName, payload, { jobId });
    adding.catch(() => undefined); // if the deadline wins, a late failure is of no interest
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        adding,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`Redis did not accept job ${jobId} on ${queueName} within ${ENQUEUE_TIMEOUT_MS} ms`)),
            ENQUEUE_TIMEOUT_MS,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close().catch(() => undefined)));
  }
}
