import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppError } from '@outreach/core';
import { AppConfig, Clock } from '@outreach/core';
import { AccessChanges } from './access-changes';
import { ApiKeyCache } from './api-key-cache';
import { ACCESS_RULE, AccessRule, HUMAN_ONLY, REQUIRED_FEATURE } from './access.decorators';
import { hashApiKey } from './api-key-format';
import { ApiKeyResolver } from './api-key-resolver.port';
import { authorize, RouteAccess } from './authorize';
import type { RequestWithPrincipal } from './principal';

/**
 * The one global guard: reads the route's access rule, authenticates the bearer key and
 * attaches the Principal. A route without a rule is refused (and caught by the route test).
 * Keys are resolved through the process's key cache (decisions.md 41.1), which every announced
 * access change empties; each request is still judged from the entry against the clock.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  readonly cache: ApiKeyCache;
  /** The route's rule and flags, read once per handler rather than through reflection on every request. */
  private readonly routes = new WeakMap<object, WeakMap<object, RouteMeta>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: ApiKeyResolver,
    private readonly clock: Clock,
    config: AppConfig,
    changes: AccessChanges,
  ) {
    this.cache = new ApiKeyCache(config.apiKeyCacheTtlMs);
    changes.subscribe((change) => this.cache.invalidate(change));
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { rule, humanOnly, feature } = this.routeMeta(context);
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
    const resolved = await this.cache.resolve(hash, () => this.resolver.resolveByHash(hash));
    const v1 = req.path === '/v1' || req.path.startsWith('/v1/');
    req.principal = authorize(hash, resolved, { rule, v1, humanOnly, feature }, this.clock.now());
    this.resolver.touch(req.principal.keyId);
    return true;
  }

  private routeMeta(context: ExecutionContext): RouteMeta {
    const handler = context.getHandler();
    const controller = context.getClass();
    let perClass = this.routes.get(controller);
    if (!perClass) this.routes.set(controller, (perClass = new WeakMap()));
    let meta = perClass.get(handler);
    if (!meta) {
      const targets = [handler, controller];
      const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, targets);
      if (!rule) throw new Error(`route ${context.getClass().name}.${handler.name} declares no access rule`);
      meta = {
        rule,
        humanOnly: this.reflector.getAllAndOverride<boolean>(HUMAN_ONLY, targets) ?? false,
        feature: this.reflector.getAllAndOverride<RouteAccess['feature']>(REQUIRED_FEATURE, targets),
      };
      perClass.set(handler, meta);
    }
    return meta;
  }
}

interface RouteMeta {
  rule: AccessRule;
  humanOnly: boolean;
  feature: RouteAccess['feature'];
}

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(.*)$/i.exec(header.trim());
  const token = match?.[1]?.trim();
  return token ? token : null;
}
