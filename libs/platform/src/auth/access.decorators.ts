import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import type { ErrorCode } from '@outreach/core';
import type { Scope } from '@outreach/core';

/**
 * How a route is reached. Every route declares exactly one access rule; a test walks the
 * registered routes and fails on one without it.
 */
export type AccessRule =
  | { kind: 'public' }
  | { kind: 'any-key' }
  | { kind: 'scope'; scope: Scope };

export const ACCESS_RULE = 'outreach:access-rule';
export const HUMAN_ONLY = 'outreach:human-only';
export const REQUIRED_FEATURE = 'outreach:required-feature';

/** The route needs this scope (checked against the key's scopes and the acting member's role). */
export const RequireScope = (scope: Scope) =>
  applyDecorators(SetMetadata(ACCESS_RULE, { kind: 'scope', scope } satisfies AccessRule), ApiBearerAuth());

/** No API key needed (health, metrics). */
export const Public = () => applyDecorators(SetMetadata(ACCESS_RULE, { kind: 'public' } satisfies AccessRule), ApiSecurity({}));

/** Any valid key of the workspace, scoped or not (e.g. GET /v1/workspace). Only for /v1 routes. */
export const AnyApiKey = () =>
  applyDecorators(SetMetadata(ACCESS_RULE, { kind: 'any-key' } satisfies AccessRule), ApiBearerAuth());

/** An action that needs a signed-in person (payments, OAuth sign-in…): keys get 403 api_key_not_allowed. */
export const HumanOnly = () => SetMetadata(HUMAN_ONLY, true);

/** The workspace must have this feature on; else the given code (default feature_not_available). */
export const RequireFeature = (feature: string, code: ErrorCode = 'feature_not_available') =>
  SetMetadata(REQUIRED_FEATURE, { feature, code });
