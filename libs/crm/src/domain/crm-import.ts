import { AppError } from '@outreach/core';

/** pending → running → completed | failed (decisions.md 31). */
export const CRM_IMPORT_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type CrmImportStatus = (typeof CRM_IMPORT_STATUSES)[number];
export type CrmImportEvent = 'start' | 'complete' | 'fail';

/** THE transition table of an import. `start` from running is the resumption after a worker died. */
export const CRM_IMPORT_TRANSITIONS: Readonly<Record<CrmImportEvent, { from: readonly CrmImportStatus[]; to: CrmImportStatus }>> = {
  start: { from: ['pending', 'running'], to: 'running' },
  complete: { from: ['running'], to: 'completed' },
  fail: { from: ['pending', 'running'], to: 'failed' },
};

export const IN_PROGRESS_IMPORT_STATUSES: readonly CrmImportStatus[] = ['pending', 'running'];

export function canApplyImport(status: CrmImportStatus, event: CrmImportEvent): boolean {
  return CRM_IMPORT_TRANSITIONS[event].from.includes(status);
}

export function applyImport(status: CrmImportStatus, event: CrmImportEvent): CrmImportStatus {
  if (!canApplyImport(status, event)) throw new AppError('internal_error', { message: `a ${status} CRM import cannot ${event}` });
  return CRM_IMPORT_TRANSITIONS[event].to;
}

export interface CrmImportCounts {
  /** Records read from the CRM. */
  read: number;
  /** New contacts. */
  imported: number;
  /** Records whose phone the campaign had already. */
  duplicates: number;
  /** Records without a usable phone. */
  invalid: number;
}

export interface CrmImportProps {
  id: string;
  workspaceId: string;
  campaignId: string;
  connectionId: string;
  segmentId: string | null;
  status: CrmImportStatus;
  /** The provider's cursor of the next page to read; null before the first page. */
  cursor: string | null;
  pages: number;
  counts: CrmImportCounts;
  /** Records the CRM said the segment holds (null when it does not say). */
  total: number | null;
  /** Consecutive upstream failures (reset by every page read). */
  failures: number;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  updatedAt: Date;
}

/** 0–99 while running (100 only when completed); 0 when the total is unknown. */
export function importProgress(p: Pick<CrmImportProps, 'status' | 'counts' | 'total'>): number {
  if (p.status === 'completed') return 100;
  if (!p.total) return 0;
  return Math.min(99, Math.floor((p.counts.read / p.total) * 100));
}

/** Back-off after `failures` consecutive upstream failures: base × 2^(failures-1), at most 5 minutes. */
export function backoffMs(baseMs: number, failures: number): number {
  return Math.min(300_000, baseMs * 2 ** Math.max(0, failures - 1));
}
