import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the telephony module owns (validated at boot with every other module's). */
export const TELEPHONY_CONFIG = defineConfig('telephony', (env) => ({
  /** Simulated length of a sandbox call in real time, ms (SANDBOX_VOICE_LATENCY_MS, default 0). */
  sandboxVoiceLatencyMs: env.int('SANDBOX_VOICE_LATENCY_MS', 0, 0, 600_000),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof TELEPHONY_CONFIG> {}
}
