import { DynamicModule, Module } from '@nestjs/common';

/** Where the API serves the queues dashboard (Bull Board) when ADMIN_TOKEN is set. */
export const QUEUES_DASHBOARD_ROUTE = '/admin/queues';

/**
 * Bull Board at /admin/queues for the API process, behind ADMIN_TOKEN (adminTokenMiddleware). It
 * is Express middleware ahead of the routes, so the API-key guard and the rate limiter never see
 * its requests; it answers them all itself, its errors through the API's exception filter.
 *
 * Bull Board, its Express adapter and the dashboard's queues (./queues-dashboard.ts) are loaded when
 * the API's module asks for them, not with @outreach/platform: the worker and the operator CLI never
 * serve the dashboard, and loading it was about 8 % of a CLI command's start (0.2 of 2.7 s of CPU).
 */
@Module({})
export class QueuesDashboardModule {
  static forRoot(queueNames: string[]): DynamicModule {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use (see above)
    const { queuesDashboardParts } = require('./queues-dashboard') as typeof import('./queues-dashboard');
    return { module: QueuesDashboardModule, ...queuesDashboardParts(QUEUES_DASHBOARD_ROUTE, queueNames) };
  }
}
