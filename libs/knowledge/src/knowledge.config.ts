import { ConfigOf, defineConfig } from '@outreach/core';

/** The configuration keys the knowledge module owns (decisions.md 39.3). */
export const KNOWLEDGE_CONFIG = defineConfig('knowledge', (env) => ({
  /** Largest document accepted (DOCUMENT_MAX_BYTES, default 10 MB); bigger is 413 document_too_large. */
  /** Embed chunks and questions through the Llm port and fuse that ranking with full-text search (KNOWLEDGE_EMBEDDINGS, default false). */
  knowledgeEmbeddings: env.bool('KNOWLEDGE_EMBEDDINGS', false),
  documentMaxBytes: env.int('DOCUMENT_MAX_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  /** Where document files live: `local` (DOCUMENT_DIR) or `s3` (DOCUMENT_S3_*) (DOCUMENT_STORE, default local). */
  documentStore: ((): 'local' | 's3' => {
    const value = env.str('DOCUMENT_STORE', 'local');
    if (value === 'local' || value === 's3') return value;
    env.problem(`DOCUMENT_STORE=${JSON.stringify(value)}: expected local or s3`);
    return 'local';
  })(),
  /** Directory of the local document store (DOCUMENT_DIR, default var/documents); API and worker must share it. */
  documentDir: env.str('DOCUMENT_DIR', 'var/documents'),
  /** S3-compatible endpoint of the document bucket (DOCUMENT_S3_ENDPOINT; AWS when unset). */
  documentS3Endpoint: env.optional('DOCUMENT_S3_ENDPOINT'),
  /** Bucket of document files (DOCUMENT_S3_BUCKET, default outreach-documents). */
  documentS3Bucket: env.str('DOCUMENT_S3_BUCKET', 'outreach-documents'),
  /** Region (DOCUMENT_S3_REGION, default us-east-1). */
  documentS3Region: env.str('DOCUMENT_S3_REGION', 'us-east-1'),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof KNOWLEDGE_CONFIG> {}
}
