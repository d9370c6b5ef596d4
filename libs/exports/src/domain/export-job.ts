import type { ExportFormat } from './export-format';
import type { ExportPeriod } from './export-period';
import type { LeadFilter, LeadSegment } from './lead-filter';

/** queued → running → ready | failed (decisions.md 26.6). "Expired" is a ready job past expiresAt. */
export const EXPORT_STATUSES = ['queued', 'running', 'ready', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export type ExportEvent = 'start' | 'finish' | 'fail';

/**
 * THE export transition table. `start` from running is the restart of a job whose worker died
 * mid-export: the job starts again from scratch.
 */
export const EXPORT_TRANSITIONS: Readonly<Record<ExportEvent, { from: readonly ExportStatus[]; to: ExportStatus }>> = {
  start: { from: ['queued', 'running'], to: 'running' },
  finish: { from: ['running'], to: 'ready' },
  fail: { from: ['queued', 'running'], to: 'failed' },
};

export function canApply(status: ExportStatus, event: ExportEvent): boolean {
  return EXPORT_TRANSITIONS[event].from.includes(status);
}

/** What was asked: kept with the job so a restart produces the same file. */
export interface ExportSpec {
  period: ExportPeriod;
  from: string | null;
  to: string | null;
  segment: LeadSegment | null;
  filter: LeadFilter | null;
  columns: string[] | null;
}

export interface ExportJobProps {
  id: string;
  workspaceId: string;
  campaignId: string;
  format: ExportFormat;
  status: ExportStatus;
  progress: number;
  /** Rows counted when the export was requested (progress is measured against it). */
  expectedRows: number;
  /** Rows written: set when ready. */
  rowCount: number | null;
  spec: ExportSpec;
  /** The file store's key of the finished file. */
  fileKey: string | null;
  fileName: string;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date | null;
  /** When housekeeping deleted the expired file (the row is kept). */
  fileDeletedAt: Date | null;
}

/** A ready job whose file may no longer be fetched. */
export function isExpired(job: Pick<ExportJobProps, 'status' | 'expiresAt' | 'fileDeletedAt'>, now: Date): boolean {
  return job.status === 'ready' && (job.fileDeletedAt !== null || (job.expiresAt !== null && job.expiresAt.getTime() <= now.getTime()));
}

/** Progress 0–99 while running (100 only when ready). */
export function progressOf(written: number, expected: number): number {
  if (expected <= 0) return 0;
  return Math.min(99, Math.floor((written * 100) / expected));
}

/** Lets progress through at most once per `everyMs` (progress is persisted at most once a second). */
export class ProgressThrottle {
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly everyMs = 1000) {}

  due(nowMs: number): boolean {
    if (nowMs - this.last < this.everyMs) return false;
    this.last = nowMs;
    return true;
  }
}
