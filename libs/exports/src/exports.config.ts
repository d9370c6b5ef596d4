import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the exports module owns (validated at boot with every other module's). */
export const EXPORTS_CONFIG = defineConfig('exports', (env) => ({
  /** Directory of the local file store (EXPORT_DIR, default var/exports); unused with EXPORT_STORE=s3. */
  exportDir: env.str('EXPORT_DIR', 'var/exports'),
  /** Hours an export file stays downloadable after it is ready (EXPORT_TTL_HOURS, default 72). */
  exportTtlHours: env.int('EXPORT_TTL_HOURS', 72, 1, 24 * 365),
  /** Where export files live: `local` (EXPORT_DIR) or `s3` (EXPORT_S3_*) (EXPORT_STORE, default local). */
  exportStore: ((): 'local' | 's3' => {
    const value = env.str('EXPORT_STORE', 'local');
    if (value === 'local' || value === 's3') return value;
    env.problem(`EXPORT_STORE=${JSON.stringify(value)}: expected local or s3`);
    return 'local';
  })(),
  /** S3-compatible endpoint, e.g. http://127.0.0.1:9000 (EXPORT_S3_ENDPOINT; AWS when unset). */
  exportS3Endpoint: env.optional('EXPORT_S3_ENDPOINT'),
  /** Bucket of export files (EXPORT_S3_BUCKET). */
  exportS3Bucket: env.str('EXPORT_S3_BUCKET', 'outreach-exports'),
  /** Region (EXPORT_S3_REGION, default us-east-1). */
  exportS3Region: env.str('EXPORT_S3_REGION', 'us-east-1'),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof EXPORTS_CONFIG> {}
}
