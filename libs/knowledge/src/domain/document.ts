import { AppError } from '@outreach/core';

/** The formats a knowledge document may have (decisions.md 39.4). */
export const DOCUMENT_TYPES = ['pdf', 'txt', 'md', 'docx'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

const BY_EXTENSION: Record<string, DocumentType> = { pdf: 'pdf', txt: 'txt', text: 'txt', md: 'md', markdown: 'md', docx: 'docx' };
const BY_MEDIA_TYPE: Record<string, DocumentType> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/x-markdown': 'md',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/** The format by the file name's extension, else by the media type; null when it is none of the four. */
export function documentTypeOf(fileName: string, mediaType?: string | null): DocumentType | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName.trim())?.[1]?.toLowerCase();
  if (ext && BY_EXTENSION[ext]) return BY_EXTENSION[ext];
  const media = (mediaType ?? '').split(';')[0].trim().toLowerCase();
  return BY_MEDIA_TYPE[media] ?? null;
}

export function assertDocumentType(fileName: string, mediaType?: string | null): DocumentType {
  const type = documentTypeOf(fileName, mediaType);
  if (!type) {
    throw new AppError('unsupported_document_type', { message: `${JSON.stringify(fileName)} is not a PDF, TXT, Markdown or DOCX file` });
  }
  return type;
}

/**
 * AWAITING_UPLOAD (created, no file) → UPLOADED (file stored: externalId set) → PROCESSING
 * (provisioned: the ingestion job is queued) → READY (chunked) | FAILED (no text could be read).
 */
export const DOCUMENT_STATUSES = ['AWAITING_UPLOAD', 'UPLOADED', 'PROCESSING', 'READY', 'FAILED'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
type DocumentEvent = 'upload' | 'provision' | 'ingested' | 'failed';

const TRANSITIONS: Record<DocumentStatus, Partial<Record<DocumentEvent, DocumentStatus>>> = {
  AWAITING_UPLOAD: { upload: 'UPLOADED' },
  UPLOADED: { upload: 'UPLOADED', provision: 'PROCESSING' },
  PROCESSING: { ingested: 'READY', failed: 'FAILED' },
  READY: {},
  FAILED: { provision: 'PROCESSING' },
};

export interface DocumentProps {
  id: string;
  workspaceId: string;
  name: string;
  fileName: string;
  type: DocumentType;
  sizeBytes: number | null;
  /** The stored file's key in the document store; null until the upload is complete. */
  externalId: string | null;
  status: DocumentStatus;
  chunkCount: number;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Whether the upload was confirmed (POST …/provision): only such documents join knowledge bases and agents. */
export function isProvisioned(status: DocumentStatus): boolean {
  return status === 'PROCESSING' || status === 'READY' || status === 'FAILED';
}

export function assertProvisioned(doc: DocumentProps): void {
  if (!isProvisioned(doc.status)) {
    throw new AppError('document_not_provisioned', {
      message: `document ${doc.id} is ${doc.status}: confirm its upload with POST /documents/${doc.id}/provision first`,
    });
  }
}

/** A file may be sent until the document is provisioned (400 invalid_request after). */
export function assertUploadable(doc: DocumentProps): void {
  if (!TRANSITIONS[doc.status].upload) {
    throw new AppError('invalid_request', { message: `document ${doc.id} is ${doc.status}: its file can no longer be replaced (upload a new document)` });
  }
}

/** The file arrived and is stored under `externalId`; refused once the document was provisioned. */
export function uploaded(doc: DocumentProps, file: { fileName: string; type: DocumentType; sizeBytes: number; externalId: string }, now: Date): DocumentProps {
  assertUploadable(doc);
  return { ...doc, ...file, status: 'UPLOADED', updatedAt: now };
}

/** The next status of a provisioning, or null when it is already provisioned and in progress or done (nothing to do). */
export function provisioning(doc: DocumentProps): DocumentStatus | null {
  if (doc.externalId === null) {
    throw new AppError('no_external_id', { message: `document ${doc.id} has no file yet: PUT /documents/${doc.id}/file first` });
  }
  return TRANSITIONS[doc.status].provision ?? null;
}

export function ingestedStatus(doc: DocumentProps, outcome: 'ingested' | 'failed'): DocumentStatus | null {
  return TRANSITIONS[doc.status][outcome] ?? null;
}
