import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isLlmError, Llm } from '@outreach/assist';
import { AppConfig, AppError, Clock, isUuid, UnitOfWork } from '@outreach/core';
import { assertProvisioned, DocumentProps } from '../domain/document';
import { fuseRankings, KnowledgeBaseProps, RetrievedPassage } from '../domain/knowledge-base';
import { DocumentView, toDocumentView } from './documents';
import { DocumentRepository, KnowledgeBaseRepository } from './knowledge.ports';

export interface KnowledgeBaseView {
  id: string;
  name: string;
  description: string | null;
  documents: DocumentView[];
  createdAt: Date;
  updatedAt: Date;
}

/** Passages a retrieval returns by default, and at most. */
export const DEFAULT_PASSAGES = 5;
export const MAX_PASSAGES = 20;

/**
 * Knowledge bases group provisioned documents (decisions.md 39.6): an unknown document is 404
 * kb_document_not_found (with its docId), a document whose upload was not confirmed 400
 * document_not_provisioned; a knowledge base an ACTIVE chatbot answers from cannot be deleted (409
 * knowledge_base_in_use). Retrieval searches the chunks of its documents.
 */
@Injectable()
export class KnowledgeBases {
  constructor(
    private readonly bases: KnowledgeBaseRepository,
    private readonly documents: DocumentRepository,
    private readonly llm: Llm,
    private readonly config: AppConfig,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, input: { name: string; description?: string | null; documentIds?: string[] }): Promise<KnowledgeBaseView> {
    const docs = await this.requireDocuments(workspaceId, input.documentIds ?? []);
    const now = this.clock.now();
    const kb: KnowledgeBaseProps = { id: randomUUID(), workspaceId, name: input.name.trim(), description: input.description ?? null, createdAt: now, updatedAt: now };
    await this.uow.run(async () => {
      await this.bases.insert(kb);
      for (const doc of docs) await this.bases.addDocument(kb.id, doc.id, now);
    });
    return this.view(kb);
  }

  async update(workspaceId: string, id: string, input: { name?: string; description?: string | null }): Promise<KnowledgeBaseView> {
    if (Object.values(input).every((v) => v === undefined)) throw new AppError('no_fields_to_update', { message: 'send at least one knowledge base field' });
    const kb = await this.require(workspaceId, id);
    const next: KnowledgeBaseProps = {
      ...kb,
      name: input.name?.trim() ?? kb.name,
      description: input.description !== undefined ? input.description : kb.description,
      updatedAt: this.clock.now(),
    };
    await this.bases.update(next);
    return this.view(next);
  }

  async list(workspaceId: string): Promise<KnowledgeBaseView[]> {
    return Promise.all((await this.bases.list(workspaceId)).map((kb) => this.view(kb)));
  }

  async get(workspaceId: string, id: string): Promise<KnowledgeBaseView> {
    return this.view(await this.require(workspaceId, id));
  }

  /** The knowledge bases of a workspace among `ids` (404 knowledge_base_not_found for the first that is not). */
  async requireAll(workspaceId: string, ids: readonly string[]): Promise<KnowledgeBaseProps[]> {
    const found: KnowledgeBaseProps[] = [];
    for (const id of new Set(ids)) found.push(await this.require(workspaceId, id));
    return found;
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    await this.uow.run(async () => {
      const kb = await this.require(workspaceId, id, true);
      const users = await this.bases.activeChatbotIds(kb.id);
      if (users.length > 0) {
        throw new AppError('knowledge_base_in_use', {
          message: `ACTIVE chatbot ${users[0]} answers from this knowledge base: disable it or remove the knowledge base from it first`,
        });
      }
      await this.bases.delete(kb.id);
    });
  }

  async addDocument(workspaceId: string, id: string, documentId: string): Promise<KnowledgeBaseView> {
    const kb = await this.require(workspaceId, id);
    const [doc] = await this.requireDocuments(workspaceId, [documentId]);
    await this.bases.addDocument(kb.id, doc.id, this.clock.now());
    return this.view(kb);
  }

  async removeDocument(workspaceId: string, id: string, documentId: string): Promise<KnowledgeBaseView> {
    const kb = await this.require(workspaceId, id);
    const removed = isUuid(documentId) && (await this.bases.removeDocument(kb.id, documentId));
    if (!removed) throw new AppError('kb_document_not_found', { message: `document ${documentId} is not in knowledge base ${kb.id}`, extra: { docId: documentId } });
    return this.view(kb);
  }

  /**
   * The passages of the knowledge bases' documents that best match the query: PostgreSQL full-text
   * search, fused with the nearest chunks by embedding when KNOWLEDGE_EMBEDDINGS is on (a model that
   * fails leaves full-text search alone; decisions.md 39.5).
   */
  async query(workspaceId: string, knowledgeBaseIds: readonly string[], query: string, limit = DEFAULT_PASSAGES): Promise<RetrievedPassage[]> {
    const kbs = await this.requireAll(workspaceId, knowledgeBaseIds);
    const documentIds = await this.bases.documentIds(kbs.map((kb) => kb.id));
    if (documentIds.length === 0 || query.trim() === '') return [];
    const n = Math.min(Math.max(limit, 1), MAX_PASSAGES);
    if (!this.config.knowledgeEmbeddings) return this.documents.search(workspaceId, documentIds, query, n);
    const [text, near] = await Promise.all([this.documents.search(workspaceId, documentIds, query, n * 3), this.nearest(workspaceId, documentIds, query, n * 3)]);
    return fuseRankings([text, near], n);
  }

  private async nearest(workspaceId: string, documentIds: readonly string[], query: string, limit: number): Promise<RetrievedPassage[]> {
    let vector: number[];
    try {
      [vector] = await this.llm.embed([query]);
    } catch (error) {
      if (isLlmError(error)) return [];
      throw error;
    }
    return this.documents.nearest(workspaceId, documentIds, vector, limit);
  }

  private async requireDocuments(workspaceId: string, ids: readonly string[]): Promise<DocumentProps[]> {
    const unique = [...new Set(ids)];
    const found = new Map((await this.documents.findMany(workspaceId, unique.filter(isUuid))).map((d) => [d.id, d]));
    return unique.map((docId) => {
      const doc = found.get(docId);
      if (!doc) throw new AppError('kb_document_not_found', { message: `no document ${docId} in this workspace`, extra: { docId } });
      assertProvisioned(doc);
      return doc;
    });
  }

  private async require(workspaceId: string, id: string, lock = false): Promise<KnowledgeBaseProps> {
    const kb = isUuid(id) ? await this.bases.find(workspaceId, id, { lock }) : null;
    if (!kb) throw new AppError('knowledge_base_not_found', { message: `no knowledge base ${id}` });
    return kb;
  }

  private async view(kb: KnowledgeBaseProps): Promise<KnowledgeBaseView> {
    const ids = await this.bases.documentIds([kb.id]);
    const docs = new Map((await this.documents.findMany(kb.workspaceId, ids)).map((d) => [d.id, d]));
    const { workspaceId: _ws, ...rest } = kb;
    return { ...rest, documents: ids.flatMap((docId) => (docs.has(docId) ? [toDocumentView(docs.get(docId)!)] : [])) };
  }
}
