// In-memory fakes of the knowledge module's ports, for use-case specs.
import { AppError } from '@outreach/core';
import { ChatbotRepository, DocumentFiles, DocumentRepository, IngestQueueProbe, StoredChatMessage } from '../application/knowledge.ports';
import type { ChatbotProps } from '../domain/chatbot';
import type { DocumentProps } from '../domain/document';
import type { RetrievedPassage } from '../domain/knowledge-base';

export class InMemoryDocumentRepository extends DocumentRepository {
  readonly rows = new Map<string, DocumentProps>();
  readonly chunks = new Map<string, string[]>();

  async insert(doc: DocumentProps): Promise<void> {
    this.rows.set(doc.id, { ...doc });
  }
  async update(doc: DocumentProps): Promise<void> {
    this.rows.set(doc.id, { ...doc });
  }
  async find(workspaceId: string, id: string): Promise<DocumentProps | null> {
    const doc = this.rows.get(id);
    return doc && doc.workspaceId === workspaceId ? { ...doc } : null;
  }
  async findById(id: string): Promise<DocumentProps | null> {
    const doc = this.rows.get(id);
    return doc ? { ...doc } : null;
  }
  async findMany(workspaceId: string, ids: readonly string[]): Promise<DocumentProps[]> {
    return ids.flatMap((id) => (this.rows.get(id)?.workspaceId === workspaceId ? [{ ...this.rows.get(id)! }] : []));
  }
  async list(workspaceId: string): Promise<DocumentProps[]> {
    return [...this.rows.values()].filter((d) => d.workspaceId === workspaceId);
  }
  async delete(_workspaceId: string, id: string): Promise<void> {
    this.rows.delete(id);
    this.chunks.delete(id);
  }
  async replaceChunks(doc: DocumentProps, chunks: readonly string[]): Promise<void> {
    this.chunks.set(doc.id, [...chunks]);
  }
  async storeEmbeddings(): Promise<void> {}
  async leadingText(_workspaceId: string, ids: readonly string[], maxChars: number): Promise<Map<string, string>> {
    return new Map(ids.flatMap((id) => (this.chunks.get(id)?.length ? [[id, this.chunks.get(id)!.join('\n').slice(0, maxChars)] as [string, string]] : [])));
  }
  async nearest(): Promise<RetrievedPassage[]> {
    return [];
  }
  /** Chunks containing any word of the query, in document order. */
  async search(_workspaceId: string, documentIds: readonly string[], query: string, limit: number): Promise<RetrievedPassage[]> {
    const words = query.toLowerCase().match(/\p{L}+/gu) ?? [];
    return documentIds
      .flatMap((id) => (this.chunks.get(id) ?? []).map((content, i) => ({ documentId: id, documentName: this.rows.get(id)?.name ?? id, seq: i + 1, content, score: 1 })))
      .filter((p) => words.some((w) => p.content.toLowerCase().includes(w)))
      .slice(0, limit);
  }
}

/** Files in memory; `failure` makes every call throw it (a store that is down or refuses). */
export class InMemoryDocumentFiles extends DocumentFiles {
  readonly files = new Map<string, Buffer>();
  failure: AppError | null = null;

  async put(key: string, body: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    this.files.set(key, body);
  }
  async get(key: string): Promise<Buffer | null> {
    if (this.failure) throw this.failure;
    return this.files.get(key) ?? null;
  }
  async delete(key: string): Promise<void> {
    this.files.delete(key);
  }
}

export class FakeIngestQueue extends IngestQueueProbe {
  up = true;
  async reachable(): Promise<boolean> {
    return this.up;
  }
}

/** Chatbots in memory; rotateKey is the same compare-and-swap as the SQL one. */
export class InMemoryChatbotRepository extends ChatbotRepository {
  readonly rows = new Map<string, ChatbotProps>();
  readonly messages: Array<{ chatbotId: string; sessionId: string; role: 'user' | 'assistant'; content: string; createdAt: Date }> = [];

  async insert(bot: ChatbotProps): Promise<void> {
    this.rows.set(bot.id, { ...bot });
  }
  async update(bot: ChatbotProps): Promise<void> {
    const current = this.rows.get(bot.id)!;
    this.rows.set(bot.id, { ...bot, embedKey: current.embedKey, embedKeyVersion: current.embedKeyVersion });
  }
  async find(workspaceId: string, id: string): Promise<ChatbotProps | null> {
    const bot = this.rows.get(id);
    return bot && bot.workspaceId === workspaceId ? { ...bot } : null;
  }
  async findByEmbedKey(embedKey: string): Promise<ChatbotProps | null> {
    return [...this.rows.values()].find((b) => b.embedKey === embedKey) ?? null;
  }
  async list(workspaceId: string): Promise<ChatbotProps[]> {
    return [...this.rows.values()].filter((b) => b.workspaceId === workspaceId);
  }
  async delete(id: string): Promise<void> {
    this.rows.delete(id);
  }
  async rotateKey(id: string, fromVersion: number, key: string, at: Date): Promise<boolean> {
    const bot = this.rows.get(id);
    if (!bot || bot.embedKeyVersion !== fromVersion) return false;
    this.rows.set(id, { ...bot, embedKey: key, embedKeyVersion: fromVersion + 1, updatedAt: at });
    return true;
  }
  async sessionMessages(chatbotId: string, sessionId: string, limit: number): Promise<StoredChatMessage[] | null> {
    const found = this.messages.filter((m) => m.chatbotId === chatbotId && m.sessionId === sessionId);
    return found.length ? found.slice(-limit) : null;
  }
  async appendMessages(chatbotId: string, sessionId: string, messages: ReadonlyArray<{ role: 'user' | 'assistant'; content: string }>, at: Date): Promise<void> {
    for (const m of messages) this.messages.push({ chatbotId, sessionId, ...m, createdAt: at });
  }
}
