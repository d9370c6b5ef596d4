import { defineErrors } from '@outreach/core';

/**
 * The error codes the calls module owns (the contract's code, default status, other statuses a
 * route may answer with, default message). Composed into the service's catalogue when the module
 * is loaded; libs/core/src/error-registry.spec.ts checks every contract code exists exactly once.
 */
export const CALLS_ERRORS = defineErrors('calls', {
  no_extraction_data: { status: 400, message: 'Nothing to analyse' },
  analysis_failed: { status: 502, message: 'Analysis generation failed' },
  sandbox_from_number_not_configured: { status: 500, message: 'Test calls need fromPhoneNumberId' },
  sandbox_from_number_unavailable: { status: 503, message: 'Shared test number unavailable' },
  web_session_not_supported: { status: 501, message: 'Web test sessions unavailable' },
  not_supported: { status: 501, message: 'Operation unavailable for workspace' },
  unknown_metric: { status: 400, message: 'Metric key not defined for campaign' },
  invalid_value: { status: 400, message: 'Value not in metric\'s allowed list' },
  no_contact_for_call: { status: 409, message: 'No contact linked to call' },
  call_not_found: { status: 404, message: 'Speech analysis or dialer call not found' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof CALLS_ERRORS, true> {}
}
