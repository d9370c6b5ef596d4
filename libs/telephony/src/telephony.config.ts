import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the telephony module owns (validated at boot with every other module's). */
export const TELEPHONY_CONFIG = defineConfig('telephony', (env) => ({
  /** Simulated length of a sandbox call in real time, ms (SANDBOX_VOICE_LATENCY_MS, default 0). */
  sandboxVoiceLatencyMs: env.int('SANDBOX_VOICE_LATENCY_MS', 0, 0, 600_000),
  /**
   * The secret the sandbox provider signs its webhooks with (SANDBOX_VOICE_WEBHOOK_SECRET): POST
   * /webhooks/voice/sandbox accepts only events signed with it. The default is for development and
   * tests; set your own wherever the route is reachable by others.
   */
  sandboxVoiceWebhookSecret: env.str('SANDBOX_VOICE_WEBHOOK_SECRET', 'sandbox-voice-webhook-secret'),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof TELEPHONY_CONFIG> {}
}
