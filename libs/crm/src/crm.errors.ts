import { defineErrors } from '@outreach/core';

/**
 * The error codes the crm module owns (moved out of libs/core/src/pending.errors.ts when the
 * module was built, issue 14; decisions.md 31), template_or_preset_required with the
 * order-notification rules (31.14).
 */
export const CRM_ERRORS = defineErrors('crm', {
  crm_connection_not_found: { status: 400, also: [404], message: 'Connection missing (400 on campaign create: missing or not ACTIVE; 404 on CRM routes)' },
  crm_connection_not_active: { status: 400, message: 'Connection not ACTIVE' },
  unknown_crm: { status: 404, message: 'CRM slug unrecognised (see GET /crm/providers)' },
  provider_not_api_key: { status: 400, message: 'CRM uses OAuth, not API-key connect' },
  invalid_credentials: { status: 400, message: 'Credentials for the connected service rejected' },
  crm_resource_not_found: { status: 404, message: 'CRM returned not found' },
  crm_upstream_unavailable: { status: 502, message: 'CRM unreachable' },
  crm_upstream_error: { status: 502, message: 'Unexpected CRM response' },
  webhooks_not_supported: { status: 400, message: 'CRM has no webhooks' },
  invalid_mapping_target: { status: 400, message: 'Field mapping target invalid' },
  invalid_mapping_source: { status: 400, message: 'Field mapping source invalid' },
  crm_import_not_found: { status: 404, message: 'CRM import not found' },
  invalid_params: { status: 400, message: 'Commerce query parameters invalid' },
  template_or_preset_required: { status: 400, message: 'Order-notification rule has neither templateId nor preset' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof CRM_ERRORS, true> {}
}
