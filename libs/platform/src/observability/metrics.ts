import { Controller, Get, Header, Injectable, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { Public } from '../auth/access.decorators';
import { AppConfig } from '@outreach/core';
import { AppError } from '@outreach/core';

@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Express middleware: times every request, labelled by the matched route pattern. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      const end = this.httpDuration.startTimer();
      res.on('finish', () => {
        const route = req.route?.path ? String(req.route.path) : 'unmatched';
        end({ method: req.method, route, status: String(res.statusCode) });
      });
      next();
    };
  }
}

@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  /** Prometheus text format. Public unless METRICS_TOKEN is set (then `Bearer <token>`). */
  @Public()
  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4')
  async scrape(@Req() req: Request): Promise<string> {
    const token = this.config.metricsToken;
    if (token && req.header('authorization') !== `Bearer ${token}`) throw new AppError('unauthorized');
    return this.metrics.registry.metrics();
  }
}
