import { defineErrors } from './error-registry';

/**
 * Contract codes whose module is not built yet, grouped by the module that will own them. The
 * catalogue holds every contract code from the start (any module may throw one); a new module
 * moves its group into its own `<module>.errors.ts` (docs/extending.md, "Add a module").
 */
export const PENDING_ERRORS = defineErrors('pending', {
  // workflows (journeys): moved to libs/workflows/src/workflows.errors.ts and libs/campaigns/src/campaigns.errors.ts
  // inbound and live campaign operations
  inbound_did_unavailable: { status: 400, message: 'Inbound number missing, not assigned, or carrier disabled' },
  inbound_did_has_no_agent: { status: 400, message: 'Number has no ACTIVE INBOUND agent' },
  inbound_did_already_in_campaign: { status: 409, message: 'Number already in a non-terminal inbound campaign' },
  inbound_agent_has_no_number: { status: 400, message: 'Inbound agent has no number' },
  inbound_agent_has_many_numbers: { status: 400, message: 'Several numbers and none specified (pass phoneNumberId)' },
  agent_type_not_inbound: { status: 400, message: 'Agent not INBOUND' },
});

declare module './error-registry' {
  interface ErrorCodes extends Record<keyof typeof PENDING_ERRORS, true> {}
}
