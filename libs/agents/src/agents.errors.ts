import { defineErrors } from '@outreach/core';

/**
 * The error codes the agents module owns (the contract's code, default status, other statuses a
 * route may answer with, default message). Composed into the service's catalogue when the module
 * is loaded; libs/core/src/error-registry.spec.ts checks every contract code exists exactly once.
 */
export const AGENTS_ERRORS = defineErrors('agents', {
  agent_not_found: { status: 404, also: [400], message: 'Agent id missing or not in workspace (400 on POST /v1/campaigns, inbound-number assignment and suggest routes)' },
  agent_not_found_or_not_provisioned: { status: 400, message: 'Agent missing, not ACTIVE, or not provisioned' },
  prompt_required: { status: 400, message: 'Agent create has no prompt after assembly' },
  invalid_transfer_number: { status: 400, message: 'Transfer number not E.164' },
  transfer_number_required: { status: 400, message: 'Transfer enabled without number' },
  background_audio_not_found: { status: 404, message: 'Background audio id not owned or not available' },
  agent_limit_reached: { status: 409, message: 'Agent quota reached on duplicate' },
  in_use: { status: 409, message: 'Agent referenced by campaigns; cannot be permanently deleted' },
  agent_not_provisioned: { status: 400, also: [409], message: 'Agent still being set up' },
  agent_archived: { status: 400, message: 'Agent archived' },
  agent_type_not_inbound: { status: 400, message: 'Agent not INBOUND' },
  preview_not_supported: { status: 501, message: 'No preview for this voice' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof AGENTS_ERRORS, true> {}
}
