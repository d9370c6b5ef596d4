import { defineErrors } from '@outreach/core';

/**
 * The error codes the dnc module owns (the contract's code, default status, other statuses a
 * route may answer with, default message). Composed into the service's catalogue when the module
 * is loaded; libs/core/src/error-registry.spec.ts checks every contract code exists exactly once.
 */
export const DNC_ERRORS = defineErrors('dnc', {
  do_not_call: { status: 409, message: 'Destination on do-not-call list' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof DNC_ERRORS, true> {}
}
