import { ConfigOf, defineConfig } from '@outreach/core';

/**
 * The configuration keys the assist module owns. The language model itself is configured by the
 * calls module's ANALYSIS_* keys (one AI provider for the service: decisions.md 32.2).
 */
export const ASSIST_CONFIG = defineConfig('assist', (env) => ({
  /** Fair-use cap: user messages one campaign chat session accepts (CHAT_MESSAGE_LIMIT, default 50). */
  chatMessageLimit: env.int('CHAT_MESSAGE_LIMIT', 50, 1, 10_000),
  /** Embedding model of the OpenAI-compatible API (ANALYSIS_EMBEDDING_MODEL, default text-embedding-3-small); used by knowledge retrieval when KNOWLEDGE_EMBEDDINGS=true. */
  analysisEmbeddingModel: env.str('ANALYSIS_EMBEDDING_MODEL', 'text-embedding-3-small'),
}));

declare module '@outreach/core' {
  interface ConfigValues extends ConfigOf<typeof ASSIST_CONFIG> {}
}
