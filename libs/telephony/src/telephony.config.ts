import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the telephony module owns (validated at boot with every other module's). */
export const TELEPHONY_CONFIG = defineConfig('telephony', (env, values) => ({
  /** Simulated length of a sandbox call in real time, ms (SANDBOX_VOICE_LATENCY_MS, default 0). */
  sandboxVoiceLatencyMs: env.int('SANDBOX_VOICE_LATENCY_MS', 0, 0, 600_000),
  /**
   * The secret the sandbox provider signs its webhooks with (SANDBOX_VOICE_WEBHOOK_SECRET): POST
   * /webhooks/voice/sandbox accepts only events signed with it. The default is for development and
   * tests; set your own wherever the route is reachable by others.
   */
  sandboxVoiceWebhookSecret: env.str('SANDBOX_VOICE_WEBHOOK_SECRET', 'sandbox-voice-webhook-secret'),
  /**
   * The service's public URL as providers reach it, without a trailing slash (PUBLIC_BASE_URL,
   * default http://localhost:<PORT>): real voice providers post their webhooks to
   * `<PUBLIC_BASE_URL>/webhooks/voice/<provider>`, and Twilio signs that full URL (decisions.md 27.3).
   */
  publicBaseUrl: env.url('PUBLIC_BASE_URL', `http://localhost:${String(values.port ?? 3000)}`, ['http:', 'https:']).replace(/\/+$/, ''),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof TELEPHONY_CONFIG> {}
}
