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
  // live campaign operations (inbound moved to libs/campaigns and libs/agents, decisions.md 36)
  campaign_not_editable: { status: 409, message: 'Status does not allow this live edit (schedule, outreach, metrics)' },
  campaign_not_reengageable: { status: 409, message: 'Re-engage not allowed in this state' },
  incomplete_retry_disabled: { status: 409, message: 'Finish-interrupted requested while incompleteRetryEnabled is off' },
  campaign_channel_not_message_followup: { status: 409, message: 'Remessage on a campaign without a message leg' },
  campaign_channel_switch_not_supported: { status: 400, message: 'Channel switch not allowed on outreach edit' },
  campaign_channel_has_no_rules: { status: 400, message: 'Outreach rules sent for a channel without rules' },
  // crm and commerce (the crm module owns the rest: libs/crm/src/crm.errors.ts)
  template_or_preset_required: { status: 400, message: 'Order-notification rule has neither templateId nor preset' },
  // knowledge (documents, knowledge bases, chatbots, dictionaries)
  dictionary_not_found: { status: 404, message: 'Dictionary not found' },
  document_not_found: { status: 404, message: 'Document not found' },
  no_external_id: { status: 400, message: 'Document upload not completed' },
  document_not_provisioned: { status: 400, message: 'Upload not confirmed' },
  chatbot_not_found: { status: 404, message: 'Chatbot not found' },
  knowledge_base_not_found: { status: 404, message: 'Knowledge base not found or not owned' },
  knowledge_base_in_use: { status: 409, message: 'Attached to a live chatbot' },
  rotation_conflict: { status: 409, message: 'Another key rotation won the race' },
  document_too_large: { status: 413, message: 'KB document over size limit' },
  empty_document: { status: 400, message: 'KB document empty' },
  unsupported_document_type: { status: 415, message: 'KB document type unsupported' },
  document_storage_unavailable: { status: 503, message: 'Storage unavailable' },
  document_storage_failed: { status: 502, message: 'Storing failed' },
  document_ingest_unavailable: { status: 502, message: 'Could not be queued for processing' },
  kb_document_not_found: { status: 404, message: 'KB document not found (docId)' },
});

declare module './error-registry' {
  interface ErrorCodes extends Record<keyof typeof PENDING_ERRORS, true> {}
}
