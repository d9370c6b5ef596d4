// Public surface of the knowledge module (issue 18, items 4–6): documents, knowledge bases,
// chatbots and dictionaries (decisions.md 39).
import { defineMigrations } from '@outreach/platform';
export * from './knowledge.errors';
export * from './knowledge.config';
import { Knowledge1763700011600 } from './infrastructure/migrations/1763700011600-knowledge';
import { KnowledgeAgentDictionaries1763700011610 } from './infrastructure/migrations/1763700011610-agent-dictionaries';
import { KnowledgeChunkEmbeddings1763700011620 } from './infrastructure/migrations/1763700011620-chunk-embeddings';

export { KnowledgeCoreModule, KnowledgeModule, KnowledgeWorkerModule } from './knowledge.module';
export { KnowledgeQueue, KnowledgeJob, ingestDocumentJob } from './application/knowledge-jobs';
export { Documents, DocumentView } from './application/documents';
export { IngestDocument } from './application/ingest-document.use-case';
export { KnowledgeBases, KnowledgeBaseView } from './application/knowledge-bases';
export { Chatbots, ChatbotView, ChatbotAnswer } from './application/chatbots';
export { Dictionaries, DictionaryView } from './application/dictionaries';
export { DOCUMENT_FILE_STORE } from './infrastructure/store-document-files';
export { DOCUMENT_TYPES, DOCUMENT_STATUSES } from './domain/document';
export const KNOWLEDGE_MIGRATIONS = defineMigrations('knowledge', [Knowledge1763700011600, KnowledgeAgentDictionaries1763700011610, KnowledgeChunkEmbeddings1763700011620]);
