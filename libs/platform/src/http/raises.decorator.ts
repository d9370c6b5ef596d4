import { SetMetadata } from '@nestjs/common';
import type { ErrorCode } from '@outreach/core';

export const RAISES_METADATA = 'outreach:raises';

/**
 * The error codes a route's own work can answer with (resource lookups, state guards, business
 * rules), declared next to the route, on the method or on the controller for all its routes:
 * `@Raises('campaign_not_found', 'campaign_not_draft')`. What the route's access rule, body,
 * query string, `@Idempotent()` and `@AnswerErrors()` imply is derived and need not be repeated
 * (decisions.md 1.14). The OpenAPI document lists each code under its status on this route, and
 * the e2e tests check every answer against that list (jest-openapi).
 */
export const Raises = (...codes: ErrorCode[]): ClassDecorator & MethodDecorator => SetMetadata(RAISES_METADATA, codes);
