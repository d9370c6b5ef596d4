import { defineErrors } from '@outreach/core';

/**
 * The error codes the functions module owns (the contract's code, default status, other statuses a
 * route may answer with, default message). Composed into the service's catalogue when the module
 * is loaded; libs/core/src/error-registry.spec.ts checks every contract code exists exactly once.
 */
export const FUNCTIONS_ERRORS = defineErrors('functions', {
  function_not_found: { status: 404, message: 'Function not found' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof FUNCTIONS_ERRORS, true> {}
}
