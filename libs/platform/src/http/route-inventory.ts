import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { ACCESS_RULE, AccessRule, HUMAN_ONLY } from '../auth/access.decorators';

export interface RouteInfo {
  method: string;
  /** Full path as registered, e.g. /v1/campaigns/:id */
  path: string;
  controller: string;
  handler: string;
  rule: AccessRule | undefined;
  humanOnly: boolean;
  /** The Nest module that declares the controller (e.g. CampaignsModule). */
  module: string;
  /** The controller class and the handler function, for their metadata. */
  type: Function;
  handlerRef: Function;
}

function joinPath(...parts: string[]): string {
  const joined = parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/');
  return `/${joined}`;
}

/**
 * Every HTTP route the app registered, with its access rule. The route test fails on a route
 * without one, and the scope and tenancy matrices walk this list, so new routes are covered
 * without anyone remembering to add them.
 */
export function listRoutes(app: INestApplication): RouteInfo[] {
  return routesOf(app.get(ModulesContainer));
}

/** The same inventory from the module container (for providers, which have no app handle). */
export function routesOf(container: ModulesContainer): RouteInfo[] {
  const reflector = new Reflector();
  const routes: RouteInfo[] = [];
  for (const module of container.values()) {
    const moduleName = (module.metatype as Function | undefined)?.name ?? 'unknown';
    for (const wrapper of module.controllers.values()) {
      const type = wrapper.metatype as Function | undefined;
      if (!type) continue;
      const base = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, type) ?? '');
      const proto = type.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const sub = Reflect.getMetadata(PATH_METADATA, handler);
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (sub === undefined || method === undefined) continue;
        for (const b of base) {
          for (const s of ([] as string[]).concat(sub)) {
            routes.push({
              method: RequestMethod[method],
              path: joinPath(b, s),
              controller: type.name,
              handler: name,
              rule: reflector.getAllAndOverride<AccessRule>(ACCESS_RULE, [handler, type]),
              humanOnly: reflector.getAllAndOverride<boolean>(HUMAN_ONLY, [handler, type]) ?? false,
              module: moduleName,
              type,
              handlerRef: handler as Function,
            });
          }
        }
      }
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/**
 * The methods the app answers on a concrete request path (`/agents/123` matches `/agents/:id`):
 * what an `Allow` header lists when a request uses another method.
 */
export function allowedMethods(routes: readonly RouteInfo[], path: string): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    const pattern = new RegExp(`^${route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}/?$`);
    if (pattern.test(path)) methods.add(route.method === 'ALL' ? '*' : route.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
