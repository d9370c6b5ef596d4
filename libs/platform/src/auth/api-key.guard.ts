import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppError } from '@outreach/core';
import { Clock } from '@outreach/core';
import { ACCESS_RULE, AccessRule, HUMAN_ONLY, REQUIRED_FEATURE } from './access.decorators';
import { hashApiKey } from './api-key-format';
import { ApiKeyResolver } from './api-key-resolver.port';
import { authorize } from './authorize';
import type { RequestWithPrincipal } from './principal';

/**
 * The one global guard: reads the route's access rule, authenticates the bearer key and
 * attaches the Principal. A route without a rule is refused (and caught by the route test).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: ApiKeyResolver,
    private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, targets);
    if (!rule) throw new Error(`route ${context.getClass().name}.${context.getHandler().name} declares no access rule`);
    if (rule.kind === 'public') return true;

    const req = context.switchToHttp().getRequest<Request & RequestWithPrincipal>();
    const token = bearerToken(req.header('authorization'));
    if (!token) {
      throw new AppError('unauthorized', {
        message: 'Send Authorization: Bearer <API key>',
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    }

    const hash = hashApiKey(token);
    const resolved = await this.resolver.resolveByHash(hash);
    const v1 = req.path === '/v1' || req.path.startsWith('/v1/');
    req.principal = authorize(
      hash,
      resolved,
      {
        rule,
        v1,
        humanOnly: this.reflector.getAllAndOverride<boolean>(HUMAN_ONLY, targets) ?? false,
        feature: this.reflector.getAllAndOverride(REQUIRED_FEATURE, targets),
      },
      this.clock.now(),
    );
    this.resolver.touch(req.principal.keyId);
    return true;
  }
}

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(.*)$/i.exec(header.trim());
  const token = match?.[1]?.trim();
  return token ? token : null;
}
