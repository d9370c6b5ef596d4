import { defineErrors } from '@outreach/core';

/**
 * The error codes the platform module owns (the contract's code, default status, other statuses a
 * route may answer with, default message). Composed into the service's catalogue when the module
 * is loaded; libs/core/src/error-registry.spec.ts checks every contract code exists exactly once.
 */
export const PLATFORM_ERRORS = defineErrors('platform', {
  unauthorized: { status: 401, message: 'No Bearer header, or empty token' },
  invalid_api_key: { status: 401, message: 'Key unknown, revoked, expired, or workspace deleted' },
  api_key_not_scoped: { status: 403, message: 'Scope-less key used outside /v1' },
  api_key_owner_inactive: { status: 403, message: 'Acting member removed or suspended' },
  workspace_pending_approval: { status: 403, message: 'Workspace not approved' },
  workspace_suspended: { status: 403, message: 'Workspace suspended' },
  forbidden: { status: 403, message: 'Missing permission (see requiredPermission) or resource of another workspace' },
  api_key_not_allowed: { status: 403, message: 'Action needs a signed-in person' },
  feature_not_available: { status: 403, also: [404], message: 'Feature not enabled for workspace or plan' },
  prompt_access_forbidden: { status: 403, message: 'Prompt text not available to keys' },
  operator_only: { status: 403, message: 'Overriding lead metrics reserved for staff' },
  invalid_body: { status: 400, also: [422], message: 'Body or query failed validation; details in issues/detail; 422 on the lead push' },
  invalid_query: { status: 400, message: 'Query string failed validation' },
  invalid_request: { status: 400, message: 'Input rejected; see message' },
  not_found: { status: 404, message: 'Resource absent in workspace, or feature not enabled' },
  no_fields_to_update: { status: 400, message: 'PATCH body empty' },
  name_taken: { status: 409, message: 'An agent, campaign or campaign type with that name exists' },
  concurrent_modification: { status: 409, message: 'Optimistic lock conflict; workflows include currentRevision' },
  rate_limited: { status: 429, message: 'Too many requests; wait Retry-After seconds' },
  internal_error: { status: 500, also: [400, 404, 413], message: 'Unexpected error; 400 usually means invalid JSON; 413 means body over 1 MB' },
  database_unavailable: { status: 503, message: 'Temporarily unavailable; retry after Retry-After' },
  provider_error: { status: 502, message: 'Called service rejected (upstreamStatus 4xx) or was down (5xx)' },
  idempotency_key_required: { status: 400, also: [422], message: 'Billed endpoint without Idempotency-Key header (400); /v1 lead push without idempotencyKey in body (422)' },
  idempotency_key_invalid: { status: 400, message: 'Key over 200 chars or non-printable/non-ASCII' },
  idempotency_in_progress: { status: 409, message: 'Same key still running; retry after Retry-After (1 s)' },
  idempotency_key_reused: { status: 422, also: [409], message: 'Key used for a different request (422); on POST /calls/test 409 means a call with this key exists' },
  idempotency_unavailable: { status: 503, message: 'Check could not run; nothing was done; retry with same key' },
  invalid_phone: { status: 422, also: [400], message: 'Phone number could not be normalised; E.164 preferred' },
  invalid_cursor: { status: 400, message: 'Ledger cursor invalid; use nextCursor from previous page' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof PLATFORM_ERRORS, true> {}
}
