import type { ExportFormat } from '../domain/export-format';
import { ExportJobProps, ExportStatus, isExpired } from '../domain/export-job';
import type { ExportPeriod } from '../domain/export-period';
import type { LeadFilter, LeadSegment } from '../domain/lead-filter';

/** An export job as the API shows it. */
export interface ExportJobView {
  id: string;
  campaignId: string;
  format: ExportFormat;
  status: ExportStatus;
  progress: number;
  rowCount: number | null;
  period: ExportPeriod;
  from: string | null;
  to: string | null;
  segment: LeadSegment | null;
  filter: LeadFilter | null;
  columns: string[] | null;
  fileName: string;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  expiresAt: string | null;
  expired: boolean;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toExportJobView(job: ExportJobProps, now: Date): ExportJobView {
  return {
    id: job.id,
    campaignId: job.campaignId,
    format: job.format,
    status: job.status,
    progress: job.progress,
    rowCount: job.rowCount,
    period: job.spec.period,
    from: job.spec.from,
    to: job.spec.to,
    segment: job.spec.segment,
    filter: job.spec.filter,
    columns: job.spec.columns,
    fileName: job.fileName,
    error: job.error,
    createdAt: job.createdAt.toISOString(),
    startedAt: iso(job.startedAt),
    finishedAt: iso(job.finishedAt),
    expiresAt: iso(job.expiresAt),
    expired: isExpired(job, now),
  };
}
