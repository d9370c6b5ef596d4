import { column, defineTable } from '@outreach/platform';
import type { ExportFormat } from '../../domain/export-format';
import type { ExportJobProps, ExportSpec, ExportStatus } from '../../domain/export-job';

/** `export_jobs` (migration 1763700010100). */
export const EXPORT_JOBS = defineTable<ExportJobProps>('export_jobs', {
  id: column.uuid('id'),
  workspaceId: column.uuid('workspace_id'),
  campaignId: column.uuid('campaign_id'),
  format: column.text<ExportFormat>('format'),
  status: column.text<ExportStatus>('status'),
  progress: column.int('progress'),
  expectedRows: column.int('expected_rows'),
  rowCount: column.nullableInt('row_count'),
  spec: column.json<ExportSpec>('spec'),
  fileKey: column.nullableText('file_key'),
  fileName: column.text('file_name'),
  error: column.nullableText('error'),
  createdAt: column.timestamp('created_at'),
  startedAt: column.nullableTimestamp('started_at'),
  finishedAt: column.nullableTimestamp('finished_at'),
  expiresAt: column.nullableTimestamp('expires_at'),
  fileDeletedAt: column.nullableTimestamp('file_deleted_at'),
});
