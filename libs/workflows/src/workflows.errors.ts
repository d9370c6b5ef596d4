import { defineErrors } from '@outreach/core';

/**
 * The error codes the workflows module owns (moved out of libs/core/src/pending.errors.ts when the
 * module was built, issue 13). workflow_not_found, workflow_not_active and the journey caps are
 * raised by the campaigns module too, which cannot import this one: campaigns owns them
 * (decisions.md 37.9). libs/core/src/error-registry.spec.ts checks every contract code exists once.
 */
export const WORKFLOWS_ERRORS = defineErrors('workflows', {
  workflow_invalid: { status: 422, message: 'Workflow definition fails validation (details included)' },
  campaign_has_no_journey: { status: 400, message: 'Campaign runs no workflow' },
  workflow_run_not_found: { status: 404, message: 'No run for that lead or run id' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof WORKFLOWS_ERRORS, true> {}
}
