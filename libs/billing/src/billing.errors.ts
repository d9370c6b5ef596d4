import { defineErrors } from '@outreach/core';

/**
 * The error codes the billing module owns (the contract's code, default status, other statuses a
 * route may answer with, default message). Composed into the service's catalogue when the module
 * is loaded; libs/core/src/error-registry.spec.ts checks every contract code exists exactly once.
 */
export const BILLING_ERRORS = defineErrors('billing', {
  invalid_custom_range: { status: 400, message: 'Custom ledger range missing or reversed' },
  no_recharge_found: { status: 409, message: '\'since last recharge\' requested with no recharge' },
  invalid_order_id: { status: 400, message: 'OrderId path parameter invalid' },
  recharge_not_found: { status: 404, message: 'Recharge not in workspace' },
  receipt_not_available: { status: 409, message: 'Recharge not yet CREDITED' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof BILLING_ERRORS, true> {}
}
