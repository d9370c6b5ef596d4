import { defineErrors } from '@outreach/core';

/**
 * The error codes the results module owns (the contract's code, default status, other statuses a
 * route may answer with, default message). Composed into the service's catalogue when the module
 * is loaded; libs/core/src/error-registry.spec.ts checks every contract code exists exactly once.
 */
export const RESULTS_ERRORS = defineErrors('results', {
  campaign_not_accepting: { status: 409, message: 'Campaign is not a running API campaign (key `code`, with `reason`)' },
  api_results_not_enabled: { status: 403, message: 'API lead results not enabled' },
  lead_not_found: { status: 404, message: 'No lead with that id in the workspace or campaign' },
  result_expired: { status: 410, message: 'Retained result expired' },
  result_not_found: { status: 404, message: 'No result with that id, or expired' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof RESULTS_ERRORS, true> {}
}
