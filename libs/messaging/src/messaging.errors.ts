import { defineErrors } from '@outreach/core';

/**
 * The error codes the messaging module owns (moved out of libs/core/src/pending.errors.ts when the
 * module was built, issue 12; decisions.md 30.10). The campaign start codes about messaging
 * (campaign_channel_needs_sender …) stay with the campaigns module, whose start checks raise them.
 */
export const MESSAGING_ERRORS = defineErrors('messaging', {
  template_not_found: { status: 404, also: [400], message: 'Template id not in workspace (400 in order-notification rules)' },
  template_not_approved: { status: 400, message: 'Template not APPROVED' },
  contact_opted_out: { status: 409, message: 'Contact opted out of messages' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof MESSAGING_ERRORS, true> {}
}
