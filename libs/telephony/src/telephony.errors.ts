import { defineErrors } from '@outreach/core';

/**
 * The error codes the telephony module owns (the contract's code, default status, other statuses a
 * route may answer with, default message). Composed into the service's catalogue when the module
 * is loaded; libs/core/src/error-registry.spec.ts checks every contract code exists exactly once.
 */
export const TELEPHONY_ERRORS = defineErrors('telephony', {
  phone_number_not_in_workspace: { status: 400, message: 'Phone number not owned/assigned, or carrier disabled' },
  phone_number_released_upstream: { status: 409, message: 'Caller-ID number no longer available' },
  phone_number_not_found: { status: 404, message: 'Phone number not in workspace' },
  phone_number_not_synced: { status: 409, message: 'Number still being set up' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof TELEPHONY_ERRORS, true> {}
}
