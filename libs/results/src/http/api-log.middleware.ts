import { Injectable, NestMiddleware } from '@nestjs/common';
import { isUuid, RequestWithPrincipal } from '@outreach/platform';
import { Clock } from '@outreach/core';
import type { NextFunction, Request, Response } from 'express';
import { ApiLogs } from '../application/api-logs.service';

const CAMPAIGN_PATH = /^\/v1\/campaigns\/([^/?#]+)/;

/**
 * Logs every authenticated /v1 request that names a campaign: route pattern, status, error code,
 * latency, key and request id. Buffered after the response has gone and written in batches
 * (ApiLogs); a failed write is only logged, never felt by the caller.
 */
@Injectable()
export class ApiLogMiddleware implements NestMiddleware {
  constructor(
    private readonly logs: ApiLogs,
    private readonly clock: Clock,
  ) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const path = req.originalUrl.split('?')[0];
    const campaignId = CAMPAIGN_PATH.exec(path)?.[1];
    if (!campaignId || !isUuid(campaignId)) return next();

    const started = process.hrtime.bigint();
    let errorCode: string | null = null;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode >= 400 && typeof body === 'object' && body !== null) {
        const b = body as { error?: unknown; code?: unknown };
        const code = typeof b.error === 'string' ? b.error : b.code;
        errorCode = typeof code === 'string' ? code : null;
      }
      return json(body);
    };
    res.on('finish', () => {
      const principal = (req as Request & RequestWithPrincipal).principal;
      if (!principal) return; // unauthenticated: no workspace to file it under
      const route = (req as Request & { route?: { path?: unknown } }).route?.path;
      this.logs.record({
        workspaceId: principal.workspaceId,
        campaignId: campaignId.toLowerCase(),
        method: req.method,
        route: typeof route === 'string' ? route : path,
        path,
        status: res.statusCode,
        errorCode,
        latencyMs: Number((process.hrtime.bigint() - started) / 1_000_000n),
        keyId: principal.keyId,
        requestId: (req as Request & RequestWithPrincipal).id ?? null,
        at: this.clock.now(),
      });
    });
    next();
  }
}
