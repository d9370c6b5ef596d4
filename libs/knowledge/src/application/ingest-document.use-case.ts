import { Injectable, Logger } from '@nestjs/common';
import { isLlmError, Llm } from '@outreach/assist';
import { AppConfig, Clock, UnitOfWork } from '@outreach/core';
import { chunkText } from '../domain/chunking';
import { DocumentProps, ingestedStatus } from '../domain/document';
import { DocumentFiles, DocumentRepository, DocumentTextReader } from './knowledge.ports';

/**
 * The ingestion job: reads the stored file, extracts its text, chunks it and marks the document
 * READY; a file that has no text or cannot be read marks it FAILED with the reason. A document no
 * longer PROCESSING is left alone (a job that runs twice changes nothing twice). A store that cannot
 * be reached throws, so the job is retried. With KNOWLEDGE_EMBEDDINGS on, each chunk is also
 * embedded through the Llm port (64 per request); a model that fails leaves the chunks without
 * embeddings (full-text search still finds them) rather than the document unusable.
 */
/** Chunks embedded per request to the model. */
const EMBED_BATCH = 64;

@Injectable()
export class IngestDocument {
  private readonly logger = new Logger('IngestDocument');

  constructor(
    private readonly documents: DocumentRepository,
    private readonly files: DocumentFiles,
    private readonly reader: DocumentTextReader,
    private readonly llm: Llm,
    private readonly config: AppConfig,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(payload: { documentId: string }): Promise<{ status: string }> {
    const doc = await this.documents.findById(payload.documentId);
    if (!doc || doc.status !== 'PROCESSING' || !doc.externalId) return { status: doc?.status ?? 'missing' };
    const bytes = await this.files.get(doc.externalId);
    if (!bytes) return this.finish(doc, [], 'the stored file is missing');
    let text: string;
    try {
      text = await this.reader.text(doc.type, bytes);
    } catch (error) {
      this.logger.warn(`document ${doc.id}: unreadable ${doc.type}: ${(error as Error).message}`);
      return this.finish(doc, [], `unreadable ${doc.type.toUpperCase()} file`);
    }
    const chunks = chunkText(text);
    return this.finish(doc, chunks, chunks.length === 0 ? 'empty_document: no text could be read from the file' : null, await this.embeddings(doc, chunks));
  }

  private async embeddings(doc: DocumentProps, chunks: string[]): Promise<number[][] | null> {
    if (!this.config.knowledgeEmbeddings || chunks.length === 0) return null;
    const vectors: number[][] = [];
    try {
      for (let i = 0; i < chunks.length; i += EMBED_BATCH) vectors.push(...(await this.llm.embed(chunks.slice(i, i + EMBED_BATCH))));
      return vectors;
    } catch (error) {
      if (!isLlmError(error)) throw error;
      this.logger.warn(`document ${doc.id}: no embeddings (${error.reason}: ${error.message}); full-text search only`);
      return null;
    }
  }

  private finish(doc: DocumentProps, chunks: string[], error: string | null, vectors: number[][] | null = null): Promise<{ status: string }> {
    return this.uow.run(async () => {
      const current = await this.documents.findById(doc.id, { lock: true });
      if (!current || current.externalId !== doc.externalId) return { status: current?.status ?? 'missing' };
      const status = ingestedStatus(current, error ? 'failed' : 'ingested');
      if (!status) return { status: current.status };
      await this.documents.replaceChunks(current, chunks);
      if (vectors) await this.documents.storeEmbeddings(current.id, vectors);
      await this.documents.update({ ...current, status, chunkCount: chunks.length, error, updatedAt: this.clock.now() });
      return { status };
    });
  }
}
