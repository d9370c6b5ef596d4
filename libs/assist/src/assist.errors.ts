import { defineErrors } from '@outreach/core';

/**
 * The error codes the assist module owns (the contract's code, default status, other statuses a
 * route may answer with, default message): campaign briefs, metric-prompt suggestions, campaign
 * chat and speech calls. Composed into the service's catalogue when the module is loaded;
 * libs/core/src/error-registry.spec.ts checks every contract code exists exactly once.
 */
export const ASSIST_ERRORS = defineErrors('assist', {
  // briefs and suggestions
  suggestion_failed: { status: 502, message: 'AI suggestion generation failed' },
  rewrite_too_long: { status: 422, message: 'POST /campaigns/suggest-metric-prompt produced a prompt over 5,000 chars' },
  unsupported_brief_type: { status: 415, message: 'Brief not PDF, TXT or Markdown' },
  brief_required: { status: 400, message: 'No brief text and no file content' },
  brief_unusable: { status: 422, message: 'No campaign could be drafted from the brief' },
  // campaign chat
  empty_message: { status: 400, message: 'Blank chat message' },
  message_limit_reached: { status: 429, message: 'Chat session hit its message cap' },
  chat_failed: { status: 500, message: 'Chat send failed (also invalid input on non-stream POST /campaigns/:id/chat)' },
  session_not_found: { status: 404, message: 'Chat session not found (sid)' },
  // speech calls
  no_transcript: { status: 400, message: 'Call has no transcript to translate' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof ASSIST_ERRORS, true> {}
}
