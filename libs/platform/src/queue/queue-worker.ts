import { BullModule, getQueueToken, OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { Queue } from 'bullmq';

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

/**
 * The base of every processor: a BullMQ WorkerHost whose worker-level errors (Redis gone, a
 * reconnect failing) are logged, rate-limited, instead of being dropped or thrown.
 */
export abstract class QueueWorkerHost extends WorkerHost {
  protected readonly log: RateLimitedLog;

  protected constructor(private readonly queueName: string) {
    super();
    this.log = new RateLimitedLog(new Logger(`${queueName}-worker`));
  }

  @OnWorkerEvent('error')
  onWorkerError(error: Error): void {
    this.log.warn(`${this.queueName} worker: ${error.message}`);
  }
}

@Module({})
class WorkerQueuesModule {}

/**
 * `BullModule.registerQueue` for a worker module's processors, with an error listener on each
 * registered Queue. Without one, BullMQ falls back to console.error and prints a stack trace for
 * every failed reconnect while Redis is down; with it, one rate-limited warning in the logs.
 */
export function workerQueues(...names: string[]): DynamicModule {
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
