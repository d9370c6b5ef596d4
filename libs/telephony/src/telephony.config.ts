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
  /**
   * The Redis the sandbox provider keeps its call records in (SANDBOX_VOICE_REDIS_URL; unset: REDIS_URL,
   * under REDIS_PREFIX either way). They stand for the provider's own call log, which a real provider
   * keeps on its side: a drill that flushes the service's Redis points them elsewhere, so the flush
   * loses what the service kept and not what the provider knows (decisions.md 37.17).
   */
  sandboxVoiceRedisUrl: env.raw('SANDBOX_VOICE_REDIS_URL') === undefined ? null : env.url('SANDBOX_VOICE_REDIS_URL', '', ['redis:', 'rediss:']),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof TELEPHONY_CONFIG> {}
}
