import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BULL_BOARD_INSTANCE, BullBoardInstance, BullBoardModule } from '@bull-board/nestjs';
import { DynamicModule, Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@outreach/core';
import { Queue } from 'bullmq';
import { bullPrefix } from '../queue/queue-producer';
import { redisOptions } from '../redis/redis.module';
import { adminTokenMiddleware } from './admin-token';

const QUEUE_NAMES = Symbol('queues-dashboard:queue-names');

/**
 * The queues the dashboard shows, opened only when ADMIN_TOKEN is set (no Redis connection
 * otherwise), on connections that fail fast: a dashboard page while Redis is down errors at once.
 */
@Injectable()
class DashboardQueues implements OnApplicationShutdown {
  private readonly queues: Queue[] = [];

  constructor(config: AppConfig, @Inject(BULL_BOARD_INSTANCE) board: BullBoardInstance, @Inject(QUEUE_NAMES) names: string[]) {
    if (config.adminToken === null) return;
    for (const name of names) {
      const queue = new Queue(name, {
        prefix: bullPrefix(config),
        connection: redisOptions(config, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }),
      });
      queue.on('error', () => undefined); // the dashboard shows the failure; the API's own checks log Redis trouble
      this.queues.push(queue);
    }
    board.replaceQueues(this.queues.map((queue) => new BullMQAdapter(queue)));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close().catch(() => undefined)));
  }
}

/** What QueuesDashboardModule.forRoot brings (queues-dashboard.module.ts loads this file on use). */
export function queuesDashboardParts(route: string, queueNames: string[]): Pick<DynamicModule, 'imports' | 'providers'> {
  return {
    imports: [
      BullBoardModule.forRootAsync({
        inject: [AppConfig],
        useFactory: (config: AppConfig) => ({
          route,
          adapter: ExpressAdapter,
          middleware: adminTokenMiddleware(config.adminToken),
          boardOptions: { uiConfig: { boardTitle: 'Outreach queues' } },
        }),
      }),
    ],
    providers: [{ provide: QUEUE_NAMES, useValue: queueNames }, DashboardQueues],
  };
}
