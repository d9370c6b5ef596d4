import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the billing module owns (validated at boot with every other module's). */
export const BILLING_CONFIG = defineConfig('billing', (env) => ({
  /** Default price of one started minute of an answered call, minor units (TARIFF_VOICE_MINUTE_MINOR, default 10). */
  tariffVoiceMinuteMinor: env.int('TARIFF_VOICE_MINUTE_MINOR', 10, 0, 1_000_000_000),
  /** Default price of one message, minor units (TARIFF_MESSAGE_MINOR, default 1). */
  tariffMessageMinor: env.int('TARIFF_MESSAGE_MINOR', 1, 0, 1_000_000_000),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof BILLING_CONFIG> {}
}
