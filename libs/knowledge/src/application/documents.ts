import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig, AppError, Clock, isUuid, Outbox, UnitOfWork } from '@outreach/core';
import { assertDocumentType, assertUploadable, DocumentProps, DocumentStatus, DocumentType, provisioning, uploaded } from '../domain/document';
import { DocumentFiles, DocumentRepository, IngestQueueProbe } from './knowledge.ports';
import { ingestDocumentJob } from './knowledge-jobs';

export interface DocumentView {
  id: string;
  name: string;
  fileName: string;
  type: DocumentType;
  sizeBytes: number | null;
  externalId: string | null;
  status: DocumentStatus;
  chunkCount: number;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function toDocumentView(doc: DocumentProps): DocumentView {
  const { workspaceId: _ws, ...view } = doc;
  return view;
}

export interface UploadedFile {
  buffer: Buffer;
  fileName: string;
  mimeType: string;
}

/**
 * Documents in two steps (decisions.md 39.4): create (POST /documents) → upload the file (PUT
 * /documents/{id}/file; stored, externalId set) → confirm (POST /documents/{id}/provision; the
 * ingestion job is queued). Only provisioned documents join knowledge bases and agents.
 */
@Injectable()
export class Documents {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly files: DocumentFiles,
    private readonly queue: IngestQueueProbe,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, input: { name?: string; fileName: string }): Promise<DocumentView> {
    const type = assertDocumentType(input.fileName);
    const now = this.clock.now();
    const doc: DocumentProps = {
      id: randomUUID(),
      workspaceId,
      name: input.name?.trim() || input.fileName.trim(),
      fileName: input.fileName.trim(),
      type,
      sizeBytes: null,
      externalId: null,
      status: 'AWAITING_UPLOAD',
      chunkCount: 0,
      error: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.documents.insert(doc);
    return toDocumentView(doc);
  }

  /** Checks the file (type, size, emptiness), stores it, then records it: a failed store changes nothing. */
  async upload(workspaceId: string, id: string, file: UploadedFile): Promise<DocumentView> {
    const doc = await this.require(workspaceId, id);
    const type = assertDocumentType(file.fileName, file.mimeType);
    if (file.buffer.length > this.config.documentMaxBytes) {
      throw new AppError('document_too_large', { message: `the document is over ${this.config.documentMaxBytes} bytes` });
    }
    if (file.buffer.length === 0 || ((type === 'txt' || type === 'md') && file.buffer.toString('utf8').trim() === '')) {
      throw new AppError('empty_document', { message: `${JSON.stringify(file.fileName)} has no content` });
    }
    assertUploadable(doc);
    const key = `${workspaceId}/${doc.id}/${randomUUID()}.${type}`;
    await this.files.put(key, file.buffer);
    const next = await this.uow.run(async () => {
      const current = await this.require(workspaceId, id, true);
      const updated = uploaded(current, { fileName: file.fileName, type, sizeBytes: file.buffer.length, externalId: key }, this.clock.now());
      await this.documents.update(updated);
      return { updated, previous: current.externalId };
    });
    if (next.previous) await this.files.delete(next.previous).catch(() => undefined);
    return toDocumentView(next.updated);
  }

  /** Confirms the upload: 400 no_external_id without a file, 502 document_ingest_unavailable when the queue is down. */
  async provision(workspaceId: string, id: string): Promise<DocumentView> {
    const doc = await this.require(workspaceId, id);
    if (provisioning(doc) === null) return toDocumentView(doc);
    if (!(await this.queue.reachable())) {
      throw new AppError('document_ingest_unavailable', { message: 'the processing queue cannot take the document now; try again shortly' });
    }
    return this.uow.run(async () => {
      const current = await this.require(workspaceId, id, true);
      const status = provisioning(current);
      if (status === null) return toDocumentView(current);
      const now = this.clock.now();
      const next: DocumentProps = { ...current, status, error: null, updatedAt: now };
      await this.documents.update(next);
      await this.outbox.enqueue(ingestDocumentJob(current.id, now));
      return toDocumentView(next);
    });
  }

  async list(workspaceId: string): Promise<DocumentView[]> {
    return (await this.documents.list(workspaceId)).map(toDocumentView);
  }

  async get(workspaceId: string, id: string): Promise<DocumentView> {
    return toDocumentView(await this.require(workspaceId, id));
  }

  /** Deletes the document, its chunks and its places in knowledge bases, then its file. */
  async delete(workspaceId: string, id: string): Promise<void> {
    const doc = await this.require(workspaceId, id);
    await this.documents.delete(workspaceId, doc.id);
    if (doc.externalId) await this.files.delete(doc.externalId).catch(() => undefined);
  }

  private async require(workspaceId: string, id: string, lock = false): Promise<DocumentProps> {
    const doc = isUuid(id) ? await this.documents.find(workspaceId, id, { lock }) : null;
    if (!doc) throw new AppError('document_not_found', { message: `no document ${id}` });
    return doc;
  }
}
