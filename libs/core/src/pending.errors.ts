import { defineErrors } from './error-registry';

/**
 * Contract codes whose module is not built yet, grouped by the module that will own them. The
 * catalogue holds every contract code from the start (any module may throw one); a new module
 * moves its group into its own `<module>.errors.ts` (docs/extending.md, "Add a module").
 */
export const PENDING_ERRORS = defineErrors('pending', {
  // workflows (journeys)
  journey_campaign_live_cap: { status: 429, message: 'Too many leads pending or in flight in a journey campaign' },
  workflow_not_found: { status: 404, message: 'No such workflow, or workflows not enabled' },
  workflow_not_active: { status: 409, message: 'Workflow not ACTIVE' },
  journey_campaign_contact_cap: { status: 400, message: 'Too many contacts for a journey campaign' },
  workflow_invalid: { status: 422, message: 'Workflow definition fails validation (details included)' },
  campaign_has_no_journey: { status: 400, message: 'Campaign runs no workflow' },
  workflow_run_not_found: { status: 404, message: 'No run for that lead or run id' },
  // inbound and live campaign operations
  inbound_did_unavailable: { status: 400, message: 'Inbound number missing, not assigned, or carrier disabled' },
  inbound_did_has_no_agent: { status: 400, message: 'Number has no ACTIVE INBOUND agent' },
  inbound_did_already_in_campaign: { status: 409, message: 'Number already in a non-terminal inbound campaign' },
  inbound_agent_has_no_number: { status: 400, message: 'Inbound agent has no number' },
  inbound_agent_has_many_numbers: { status: 400, message: 'Several numbers and none specified (pass phoneNumberId)' },
  campaign_not_editable: { status: 409, message: 'Status does not allow this live edit (schedule, outreach, metrics)' },
  campaign_not_reengageable: { status: 409, message: 'Re-engage not allowed in this state' },
  incomplete_retry_disabled: { status: 409, message: 'Finish-interrupted requested while incompleteRetryEnabled is off' },
  campaign_channel_not_message_followup: { status: 409, message: 'Remessage on a campaign without a message leg' },
  campaign_channel_switch_not_supported: { status: 400, message: 'Channel switch not allowed on outreach edit' },
  campaign_channel_has_no_rules: { status: 400, message: 'Outreach rules sent for a channel without rules' },
  agent_type_not_inbound: { status: 400, message: 'Agent not INBOUND' },
  // crm and commerce (the crm module owns the rest: libs/crm/src/crm.errors.ts)
  template_or_preset_required: { status: 400, message: 'Order-notification rule has neither templateId nor preset' },
});

declare module './error-registry' {
  interface ErrorCodes extends Record<keyof typeof PENDING_ERRORS, true> {}
}
