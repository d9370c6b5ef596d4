import type { OutboxJob } from '@outreach/core';

export enum KnowledgeQueue {
  Knowledge = 'knowledge',
}

export enum KnowledgeJob {
  /** `{ documentId }`: read the stored file, chunk its text, mark the document READY or FAILED. */
  Ingest = 'ingest',
}

/** One job per provisioning (a FAILED document provisioned again gets a new one). */
export function ingestDocumentJob(documentId: string, provisionedAt: Date): OutboxJob {
  return { queue: KnowledgeQueue.Knowledge, name: KnowledgeJob.Ingest, payload: { documentId }, jobId: `ingest-${documentId}-${provisionedAt.getTime()}` };
}
