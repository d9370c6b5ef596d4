import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BULL_BOARD_INSTANCE, BullBoardInstance, BullBoardModule } from '@bull-board/nestjs';
import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@outreach/core';
import { Queue } from 'bullmq';
import { bullPrefix } from '../queue/queue-producer';
import { redisOptions } from '../redis/redis.module';
import { adminTokenMiddleware } from './admin-token';

/** Where the API serves the queues dashboard (Bull Board) when ADMIN_TOKEN is set. */
export const QUEUES_DASHBOARD_ROUTE = '/admin/queues';

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

/**
 * Bull Board at /admin/queues for the API process, behind ADMIN_TOKEN (adminTokenMiddleware). It
 * is Express middleware ahead of the routes, so the API-key guard and the rate limiter never see
 * its requests; it answers them all itself, its errors through the API's exception filter.
 */
@Module({})
export class QueuesDashboardModule {
  static forRoot(queueNames: string[]): DynamicModule {
    return {
      module: QueuesDashboardModule,
      imports: [
        BullBoardModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            route: QUEUES_DASHBOARD_ROUTE,
            adapter: ExpressAdapter,
            middleware: adminTokenMiddleware(config.adminToken),
            boardOptions: { uiConfig: { boardTitle: 'Outreach queues' } },
          }),
        }),
      ],
      providers: [{ provide: QUEUE_NAMES, useValue: queueNames }, DashboardQueues],
    };
  }
}
