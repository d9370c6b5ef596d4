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

/**
 * Producer side of BullMQ: one Queue per name, on connections that fail fast when Redis is
 * unreachable (no offline queue), so the outbox relay notices and retries later.
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
        connection: redisOptions(this.config, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }),
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
      });
      queue.on('error', () => undefined); // connection errors surface on add(); the relay retries
      this.queues.set(name, queue);
    }
    return queue;
  }

  async add(queueName: string, jobName: string, payload: unknown, jobId: string): Promise<void> {
    await this.queue(queueName).add(jobName, payload, { jobId });
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close().catch(() => undefined)));
  }
}
