import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the campaigns module owns (validated at boot with every other module's). */
export const CAMPAIGNS_CONFIG = defineConfig('campaigns', (env) => ({
  /** Largest upload accepted by POST /uploads (UPLOAD_MAX_BYTES, default 20 MB). */
  uploadMaxBytes: env.int('UPLOAD_MAX_BYTES', 20 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  /** How long an upload can be imported into a campaign (UPLOAD_TTL_HOURS, default 24). */
  uploadTtlHours: env.int('UPLOAD_TTL_HOURS', 24, 1, 24 * 365),
  /** How long a contact's timeline events are kept (TIMELINE_RETENTION_DAYS, default 30, like results; decisions.md 29.3). */
  timelineRetentionDays: env.int('TIMELINE_RETENTION_DAYS', 30, 1, 3650),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof CAMPAIGNS_CONFIG> {}
}
