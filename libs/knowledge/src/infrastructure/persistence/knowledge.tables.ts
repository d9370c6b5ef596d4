import { column, defineTable } from '@outreach/platform';
import type { ChatbotStatus } from '../../domain/chatbot';
import type { DictionaryEntry, DictionaryKind } from '../../domain/dictionary';
import type { DocumentProps, DocumentStatus, DocumentType } from '../../domain/document';
import type { KnowledgeBaseProps } from '../../domain/knowledge-base';

/** `knowledge_documents` (migration 1763700011600). */
export const DOCUMENTS = defineTable<DocumentProps>('knowledge_documents', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  name: column.text('name'),
  fileName: column.text('file_name'),
  type: column.text<DocumentType>('type'),
  sizeBytes: column.nullableBigint('size_bytes'),
  externalId: column.nullableText('external_id'),
  status: column.text<DocumentStatus>('status'),
  chunkCount: column.int('chunk_count'),
  error: column.nullableText('error'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});

/** `knowledge_chunks`: PK (document_id, seq); `search` is a generated tsvector (english) with a GIN index. */
export const CHUNKS = defineTable<{ documentId: string; seq: number; workspaceId: string; content: string }>('knowledge_chunks', {
  documentId: column.uuid('document_id'),
  seq: column.int('seq'),
  workspaceId: column.uuid('workspace_id'),
  content: column.text('content'),
});

export const KNOWLEDGE_BASES = defineTable<KnowledgeBaseProps>('knowledge_bases', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  name: column.text('name'),
  description: column.nullableText('description'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});

export const KB_DOCUMENTS = defineTable<{ knowledgeBaseId: string; documentId: string; addedAt: Date }>('knowledge_base_documents', {
  knowledgeBaseId: column.uuid('knowledge_base_id'),
  documentId: column.uuid('document_id'),
  addedAt: column.timestamp('added_at'),
});

export interface ChatbotRow {
  id: string;
  workspaceId: string;
  name: string;
  instructions: string | null;
  status: ChatbotStatus;
  embedKey: string;
  embedKeyVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

export const CHATBOTS = defineTable<ChatbotRow>('chatbots', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  name: column.text('name'),
  instructions: column.nullableText('instructions'),
  status: column.text<ChatbotStatus>('status'),
  embedKey: column.text('embed_key'),
  embedKeyVersion: column.int('embed_key_version'),
  createdAt: column.timestamp('created_at'),
  updatedAt: column.timestamp('updated_at'),
});

export const CHATBOT_KBS = defineTable<{ chatbotId: string; knowledgeBaseId: string }>('chatbot_knowledge_bases', {
  chatbotId: column.uuid('chatbot_id'),
  knowledgeBaseId: column.uuid('knowledge_base_id'),
});

export const CHATBOT_MESSAGES = defineTable<{ id: string; chatbotId: string; sessionId: string; seq: number; role: 'user' | 'assistant'; content: string; createdAt: Date }>(
  'chatbot_messages',
  {
    id: column.uuid('id'),
    chatbotId: column.uuid('chatbot_id'),
    sessionId: column.uuid('session_id'),
    seq: column.int('seq'),
    role: column.text<'user' | 'assistant'>('role'),
    content: column.text('content'),
    createdAt: column.timestamp('created_at'),
  },
);

export const DICTIONARIES = defineTable<{ id: string; workspaceId: string; name: string; kind: DictionaryKind; entries: DictionaryEntry[]; createdAt: Date; updatedAt: Date }>(
  'dictionaries',
  {
    id: column.uuid('id'),
    workspaceId: column.uuid('workspace_id'),
    name: column.text('name'),
    kind: column.text<DictionaryKind>('kind'),
    entries: column.json<DictionaryEntry[]>('entries'),
    createdAt: column.timestamp('created_at'),
    updatedAt: column.timestamp('updated_at'),
  },
);
