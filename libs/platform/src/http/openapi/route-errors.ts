import { Reflector } from '@nestjs/core';
import { ErrorCode, errorDefinition } from '@outreach/core';
import { REQUIRED_FEATURE } from '../../auth/access.decorators';
import { IDEMPOTENT_OPTIONS, IdempotentOptions } from '../../idempotency/idempotent-options';
import { ERROR_STATUSES_METADATA, ErrorStatuses } from '../error-status.decorator';
import { RAISES_METADATA } from '../raises.decorator';
import type { RouteInfo } from '../route-inventory';

/** One error answer a route can give: a code at a status. */
export interface RouteError {
  code: ErrorCode;
  status: number;
}

/** What the OpenAPI operation of the route says about its input. */
export interface RouteInput {
  hasQuery: boolean;
}

const reflector = new Reflector();

function merged<T>(key: string, route: RouteInfo): T[] {
  return [
    ...((reflector.get<T[] | undefined>(key, route.type) ?? []) as T[]),
    ...((reflector.get<T[] | undefined>(key, route.handlerRef) ?? []) as T[]),
  ];
}

/**
 * Every error a route can answer, in the order of checks of decisions.md 1.9, derived from what
 * the route declares: its access rule (401/403), the rate limit (429), a body and its query string
 * (400/413), @Idempotent(), @AnswerErrors() and @Raises() (its own codes), plus what any request
 * can meet (503 database_unavailable, 500 internal_error). A code answers with the status the
 * route gives it in @AnswerErrors(), else with the catalogue's default.
 */
export function routeErrors(route: RouteInfo, input: RouteInput): RouteError[] {
  const statuses: ErrorStatuses = {
    ...reflector.get<ErrorStatuses | undefined>(ERROR_STATUSES_METADATA, route.type),
    ...reflector.get<ErrorStatuses | undefined>(ERROR_STATUSES_METADATA, route.handlerRef),
  };
  const found: RouteError[] = [];
  const add = (code: ErrorCode, status?: number) => {
    const s = status ?? statuses[code] ?? errorDefinition(code).status;
    if (!found.some((e) => e.code === code && e.status === s)) found.push({ code, status: s });
  };

  const authenticated = route.rule !== undefined && route.rule.kind !== 'public';
  if (authenticated) {
    add('unauthorized');
    add('invalid_api_key');
    add('workspace_pending_approval');
    add('workspace_suspended');
    add('api_key_owner_inactive');
    if (route.rule?.kind === 'scope') {
      if (!route.path.startsWith('/v1/')) add('api_key_not_scoped');
      add('forbidden');
    }
    if (route.humanOnly) add('api_key_not_allowed');
    const feature = reflector.getAllAndOverride<{ code: ErrorCode } | undefined>(REQUIRED_FEATURE, [route.handlerRef, route.type]);
    if (feature) add(feature.code);
    add('rate_limited');
  }
  // Any request may carry a JSON body, read before the route (decisions.md 1.6, 1.7): malformed →
  // 400 internal_error, over the limit → 413 internal_error, nested too deep → invalid_body; and a
  // route with a body DTO refuses an invalid one with invalid_body.
  add('internal_error', 400);
  add('internal_error', 413);
  add('invalid_body');
  if (input.hasQuery) add('invalid_query');
  const idempotent = reflector.getAllAndOverride<IdempotentOptions | undefined>(IDEMPOTENT_OPTIONS, [route.handlerRef, route.type]);
  if (idempotent) {
    add('idempotency_key_required');
    add('idempotency_key_invalid');
    add('idempotency_in_progress');
    add('idempotency_key_reused', idempotent.reusedStatus ?? 422);
    add('idempotency_unavailable');
  }
  for (const code of Object.keys(statuses) as ErrorCode[]) add(code);
  for (const code of merged<ErrorCode>(RAISES_METADATA, route)) add(code);
  if (authenticated) add('database_unavailable');
  add('internal_error', 500);
  return found;
}
