import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the messaging module owns (validated at boot with every other module's; decisions.md 30.15). */
export const MESSAGING_CONFIG = defineConfig('messaging', (env) => ({
  /**
   * The app secret WhatsApp webhooks are signed with (WHATSAPP_APP_SECRET; X-Hub-Signature-256) for
   * senders without an app secret of their own (platform-shared numbers, and the sandbox). The
   * default is for development and tests; set your own wherever the route is reachable by others.
   */
  whatsappAppSecret: env.str('WHATSAPP_APP_SECRET', 'sandbox-whatsapp-app-secret'),
  /** The token the GET verification handshake of /webhooks/whatsapp/{senderId} expects (WHATSAPP_WEBHOOK_VERIFY_TOKEN), for senders without their own. */
  whatsappWebhookVerifyToken: env.str('WHATSAPP_WEBHOOK_VERIFY_TOKEN', 'sandbox-whatsapp-verify-token'),
  /** The WhatsApp Cloud API (Graph) base URL with its version (WHATSAPP_GRAPH_BASE_URL). */
  whatsappGraphBaseUrl: env.url('WHATSAPP_GRAPH_BASE_URL', 'https://graph.facebook.com/v21.0', ['http:', 'https:']).replace(/\/+$/, ''),
  /** Longest one Graph request may take (WHATSAPP_GRAPH_TIMEOUT_MS). */
  whatsappGraphTimeoutMs: env.int('WHATSAPP_GRAPH_TIMEOUT_MS', 10_000, 100, 120_000),
  /** Longest an SMTP connection, greeting or socket pause may take (SMTP_TIMEOUT_MS). */
  smtpTimeoutMs: env.int('SMTP_TIMEOUT_MS', 15_000, 100, 120_000),
  /**
   * How long, past its send lease (60 s), a message whose sender died mid-send waits for the
   * provider's status report naming it before it is sent again (MESSAGE_RETAKE_GRACE_MS; decisions.md
   * 33.16). 0 resends at the lease's end (at-least-once without waiting). Providers that dedupe on our
   * message id (the sandbox) never wait.
   */
  messageRetakeGraceMs: env.int('MESSAGE_RETAKE_GRACE_MS', 120_000, 0, 86_400_000),
  /** The secret email provider webhooks are signed with (EMAIL_WEBHOOK_SECRET; X-Signature-256 like WhatsApp's). */
  emailWebhookSecret: env.str('EMAIL_WEBHOOK_SECRET', 'sandbox-email-webhook-secret'),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof MESSAGING_CONFIG> {}
}
