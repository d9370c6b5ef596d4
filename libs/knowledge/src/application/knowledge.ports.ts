import type { ChatbotProps } from '../domain/chatbot';
import type { DictionaryProps } from '../domain/dictionary';
import type { DocumentProps, DocumentType } from '../domain/document';
import type { KnowledgeBaseProps, RetrievedPassage } from '../domain/knowledge-base';

/** `knowledge_documents` and their chunks. Lookups are per workspace: another workspace's id is "none". */
export abstract class DocumentRepository {
  abstract insert(doc: DocumentProps): Promise<void>;
  abstract update(doc: DocumentProps): Promise<void>;
  /** Null for unknown, malformed or another workspace's ids; `lock` takes a row lock (in a transaction). */
  abstract find(workspaceId: string, id: string, options?: { lock?: boolean }): Promise<DocumentProps | null>;
  /** For the worker (payloads carry ids). */
  abstract findById(id: string, options?: { lock?: boolean }): Promise<DocumentProps | null>;
  abstract findMany(workspaceId: string, ids: readonly string[]): Promise<DocumentProps[]>;
  abstract list(workspaceId: string): Promise<DocumentProps[]>;
  abstract delete(workspaceId: string, id: string): Promise<void>;
  /** Replaces the document's chunks (numbered from 1). */
  abstract replaceChunks(doc: DocumentProps, chunks: readonly string[]): Promise<void>;
  /** The documents' first chunks in order, at most `maxChars` characters per document. */
  abstract leadingText(workspaceId: string, ids: readonly string[], maxChars: number): Promise<Map<string, string>>;
  /** Stores one embedding per chunk (numbered from 1). */
  abstract storeEmbeddings(documentId: string, vectors: readonly number[][]): Promise<void>;
  /** The chunks of these documents nearest to `vector` (dot product of unit vectors), best first. */
  abstract nearest(workspaceId: string, documentIds: readonly string[], vector: readonly number[], limit: number): Promise<RetrievedPassage[]>;
  /** Full-text search over the chunks of these documents, best first. */
  abstract search(workspaceId: string, documentIds: readonly string[], query: string, limit: number): Promise<RetrievedPassage[]>;
}

export abstract class KnowledgeBaseRepository {
  abstract insert(kb: KnowledgeBaseProps): Promise<void>;
  abstract update(kb: KnowledgeBaseProps): Promise<void>;
  abstract find(workspaceId: string, id: string, options?: { lock?: boolean }): Promise<KnowledgeBaseProps | null>;
  abstract list(workspaceId: string): Promise<KnowledgeBaseProps[]>;
  abstract delete(id: string): Promise<void>;
  /** The documents of these knowledge bases, in the order they were added. */
  abstract documentIds(knowledgeBaseIds: readonly string[]): Promise<string[]>;
  /** False when it was already there. */
  abstract addDocument(knowledgeBaseId: string, documentId: string, at: Date): Promise<boolean>;
  /** False when it was not there. */
  abstract removeDocument(knowledgeBaseId: string, documentId: string): Promise<boolean>;
  /** ACTIVE chatbots answering from this knowledge base. */
  abstract activeChatbotIds(knowledgeBaseId: string): Promise<string[]>;
}

export interface StoredChatMessage {
  role: 'user' | 'assistant';
  content: string;
  createdAt: Date;
}

export abstract class ChatbotRepository {
  abstract insert(bot: ChatbotProps): Promise<void>;
  /** Writes name, instructions, status and knowledge bases (not the key: see rotateKey). */
  abstract update(bot: ChatbotProps): Promise<void>;
  abstract find(workspaceId: string, id: string, options?: { lock?: boolean }): Promise<ChatbotProps | null>;
  abstract findByEmbedKey(embedKey: string): Promise<ChatbotProps | null>;
  abstract list(workspaceId: string): Promise<ChatbotProps[]>;
  abstract delete(id: string): Promise<void>;
  /** Compare-and-swap: replaces the key only if the chatbot is still at `fromVersion`; false if not. */
  abstract rotateKey(id: string, fromVersion: number, key: string, at: Date): Promise<boolean>;
  /** The session's messages, oldest first (the last `limit`); null when the session is not this chatbot's. */
  abstract sessionMessages(chatbotId: string, sessionId: string, limit: number): Promise<StoredChatMessage[] | null>;
  abstract appendMessages(chatbotId: string, sessionId: string, messages: ReadonlyArray<{ role: 'user' | 'assistant'; content: string }>, at: Date): Promise<void>;
}

export abstract class DictionaryRepository {
  abstract insert(dictionary: DictionaryProps): Promise<void>;
  abstract update(dictionary: DictionaryProps): Promise<void>;
  abstract find(workspaceId: string, id: string): Promise<DictionaryProps | null>;
  abstract findMany(workspaceId: string, ids: readonly string[]): Promise<DictionaryProps[]>;
  abstract list(workspaceId: string): Promise<DictionaryProps[]>;
  abstract delete(id: string): Promise<void>;
  /** The dictionaries an agent uses, in its order. */
  abstract forAgent(workspaceId: string, agentId: string): Promise<DictionaryProps[]>;
  /** Replaces the agent's dictionaries. */
  abstract setForAgent(workspaceId: string, agentId: string, dictionaryIds: readonly string[]): Promise<void>;
}

/**
 * Document files, over the shared FileStore port (@outreach/files). A store that cannot be reached
 * is AppError document_storage_unavailable (503); one that refused or failed the write is
 * document_storage_failed (502).
 */
export abstract class DocumentFiles {
  abstract put(key: string, body: Buffer): Promise<void>;
  /** Null when there is no file under that key. */
  abstract get(key: string): Promise<Buffer | null>;
  abstract delete(key: string): Promise<void>;
}

/** A document's text by format (PDF through unpdf, DOCX through mammoth, TXT/MD as strict UTF-8); throws on a damaged file. */
export abstract class DocumentTextReader {
  abstract text(type: DocumentType, bytes: Buffer): Promise<string>;
}

/** Whether the job queue takes work now: provisioning refuses (502 document_ingest_unavailable) when it does not. */
export abstract class IngestQueueProbe {
  abstract reachable(): Promise<boolean>;
}
