import { defineErrors } from '@outreach/core';

/**
 * The error codes the campaigns module owns (the contract's code, default status, other statuses a
 * route may answer with, default message). Composed into the service's catalogue when the module
 * is loaded; libs/core/src/error-registry.spec.ts checks every contract code exists exactly once.
 */
export const CAMPAIGNS_ERRORS = defineErrors('campaigns', {
  LIMIT_FILE_SIZE: { status: 500, message: 'Uploaded file over the endpoint limit (returned as 500)' },
  file_too_large: { status: 413, also: [400], message: 'File over size limit' },
  file_required: { status: 400, message: 'Multipart request had no file' },
  no_files: { status: 400, message: 'No files uploaded' },
  upload_error: { status: 400, message: 'Malformed multipart; send a single `file` field' },
  upload_failed: { status: 500, message: 'Fallback when an upload error has no message' },
  campaign_not_found: { status: 404, message: 'No such campaign in workspace' },
  campaign_not_draft: { status: 409, message: 'Change only allowed in DRAFT (edits also PAUSED/CREDIT_EXHAUSTED; contacts only DRAFT)' },
  campaign_delete_active: { status: 409, message: 'Only DRAFT, CANCELED, COMPLETED can be deleted' },
  campaign_delete_import_in_progress: { status: 409, message: 'CRM import pending or running' },
  campaign_not_running: { status: 400, message: 'Not running (also for unknown id)' },
  campaign_not_paused: { status: 400, message: 'Mapped in the /v1 resume handler; condition unclear' },
  campaign_not_startable: { status: 400, message: 'Status not DRAFT, PAUSED or CREDIT_EXHAUSTED, or journey/inbound campaign in non-startable state' },
  invalid_reserved_concurrency: { status: 400, message: 'ReservedConcurrency out of range' },
  workspace_not_active: { status: 402, message: 'Workspace not ACTIVE' },
  activity_frozen: { status: 402, message: 'Workspace activity frozen' },
  insufficient_credits: { status: 402, message: 'Wallet too low and no active trial' },
  campaign_workflow_not_active: { status: 400, message: 'Journey campaign\'s workflow missing or not ACTIVE at start' },
  campaign_no_pending_contacts: { status: 400, message: 'No PENDING contacts' },
  campaign_schedule_expired: { status: 400, message: 'ScheduledEndAt in the past' },
  campaign_is_inbound_misconfigured: { status: 400, message: 'Outbound-style campaign with INBOUND agent and no contacts' },
  campaign_channel_needs_workflow: { status: 400, message: 'CUSTOM channel without workflow' },
  campaign_channel_needs_email_sender: { status: 400, message: 'EMAIL campaign without sender mailbox' },
  campaign_channel_needs_email_template: { status: 400, message: 'EMAIL campaign without template' },
  campaign_channel_needs_agent: { status: 400, message: 'Voice-leg campaign without agent' },
  campaign_channel_needs_sender: { status: 400, message: 'Message-leg campaign without WhatsApp sender' },
  campaign_channel_needs_template: { status: 400, message: 'Message-leg campaign without outreach template, or template id unknown' },
  outreach_template_not_approved: { status: 400, message: 'Outreach template not APPROVED' },
  outreach_template_needs_runtime_context: { status: 400, message: 'Template has bindings fillable only at runtime' },
  campaign_no_phone_numbers: { status: 400, message: 'Voice campaign has no phone numbers on an enabled carrier' },
  reserved_exceeds_allocation: { status: 400, message: 'Running campaigns would reserve more concurrency than the workspace has' },
  inbound_did_unavailable: { status: 400, message: 'Inbound number missing, not assigned, or carrier disabled' },
  inbound_did_has_no_agent: { status: 400, message: 'Number has no ACTIVE INBOUND agent' },
  inbound_did_already_in_campaign: { status: 409, message: 'Number already in a non-terminal inbound campaign' },
  inbound_agent_has_no_number: { status: 400, message: 'Inbound agent has no number' },
  inbound_agent_has_many_numbers: { status: 400, message: 'Several numbers and none specified (pass phoneNumberId)' },
  inbound_campaign_action_not_supported: { status: 400, message: 'Operation invalid for INBOUND campaigns (uploads, pause/resume/restart, source switch, re-engage, remessage, outreach)' },
  journey_campaign_source_unsupported: { status: 400, message: 'Journey campaigns accept only CSV or API source' },
  journey_campaign_action_unsupported: { status: 400, message: 'Restart or contact-retry on a journey campaign' },
  // Journey rules the campaigns module raises (moved from pending with the workflows module, decisions.md 37.9).
  workflow_not_found: { status: 404, message: 'No such workflow, or workflows not enabled' },
  workflow_not_active: { status: 409, message: 'Workflow not ACTIVE' },
  journey_campaign_contact_cap: { status: 400, message: 'Too many contacts for a journey campaign' },
  journey_campaign_live_cap: { status: 429, message: 'Too many leads pending or in flight in a journey campaign' },
  campaign_type_not_found: { status: 400, message: 'CampaignTypeId unknown or not ACTIVE' },
  reserved_extraction_key: { status: 400, message: 'Custom extraction key uses a built-in signal name' },
  reserved_metric_key: { status: 400, message: 'Evaluation metric key uses a built-in signal name' },
  metric_key_collision: { status: 400, message: 'Metric key collides with an extraction field name' },
  default_crm_connection_required: { status: 400, message: 'CRM_WEBHOOK campaign without defaultCrmConnectionId' },
  campaign_source_locked: { status: 409, message: 'Source cannot change once contacts or API deliveries exist, or when not DRAFT' },
  campaign_running_no_remove: { status: 409, message: 'Cannot detach a number from a RUNNING campaign' },
  upload_not_found_or_expired: { status: 404, message: 'UploadId unknown or expired (some endpoints return internal_error)' },
  excel_mangled_phone: { status: 422, message: 'Phone column in scientific notation' },
  invalid_csv_format: { status: 400, message: 'CSV needs a header row and one data row' },
  contact_not_found: { status: 404, message: 'Campaign contact not found' },
  campaign_not_active: { status: 400, message: 'Retry requested on inactive campaign' },
  contact_not_failed: { status: 400, message: 'Only FAILED contacts can be retried' },
  campaign_not_in_draft: { status: 400, message: 'Adding contacts or CRM import needs DRAFT (or live CRM_WEBHOOK for imports)' },
  campaign_already_terminal: { status: 400, message: 'Stop on a finished campaign' },
  campaign_not_restartable: { status: 400, message: 'Only COMPLETED or CANCELED can be restarted' },
  // live actions (decisions.md 35)
  campaign_not_reengageable: { status: 409, message: 'Re-engage not allowed in this state' },
  incomplete_retry_disabled: { status: 409, message: 'Finish-interrupted requested while incompleteRetryEnabled is off' },
  // live edits, outreach rules and remessage (decisions.md 34)
  campaign_not_editable: { status: 409, message: 'Status does not allow this live edit (schedule, outreach, metrics)' },
  campaign_channel_not_message_followup: { status: 409, message: 'Remessage on a campaign without a message leg' },
  campaign_channel_switch_not_supported: { status: 400, message: 'Channel switch not allowed on outreach edit' },
  campaign_channel_has_no_rules: { status: 400, message: 'Outreach rules sent for a channel without rules' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof CAMPAIGNS_ERRORS, true> {}
}
