import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '@outreach/core';
import { AppError } from '@outreach/core';
import { Clock } from '@outreach/core';
import type { RequestWithPrincipal } from '../auth/principal';
import { RateLimiter } from './rate-limiter';

/**
 * Per API key, after authentication (decisions.md 1.7, 3.2, 3.4 order). Limit: the workspace's own setting or
 * RATE_LIMIT_PER_MINUTE. Headers per the IETF RateLimit draft; 429 rate_limited + Retry-After.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request & RequestWithPrincipal>();
    const principal = req.principal;
    if (!principal) return true; // public route
    const limit = principal.workspace.rateLimitPerMinute ?? this.config.rateLimitPerMinute;
    // Windows follow the Clock port, so tests place requests in a window instead of racing the minute.
    const decision = await this.limiter.hit(`key:${principal.keyId}`, limit, this.clock.now().getTime());
    if (!decision) return true; // Redis unavailable: fail open
    const res = context.switchToHttp().getResponse<Response>();
    res.setHeader('RateLimit-Policy', `"default";q=${decision.limit};w=${decision.windowSeconds}`);
    res.setHeader('RateLimit', `"default";r=${decision.remaining};t=${decision.resetSeconds}`);
    if (!decision.allowed) {
      throw new AppError('rate_limited', {
        headers: { 'Retry-After': String(decision.resetSeconds) },
        message: `Over ${decision.limit} requests per ${decision.windowSeconds} s for this key`,
      });
    }
    return true;
  }
}
