// Public surface of the exports module (issue 16): counts, lead segments, CSV/XLSX export jobs.
import { defineMigrations } from '@outreach/platform';
export * from './exports.errors';
export * from './exports.config';
import { Exports1763700010100 } from './infrastructure/migrations/1763700010100-exports';

export { ExportsCoreModule, ExportsModule, ExportsWorkerModule } from './exports.module';
export { ExportsJob, ExportsQueue, runExportJob } from './application/exports-jobs';
export { ExportCounts } from './application/export-counts';
export { ExportQueries, ExportDownload } from './application/export-queries';
export { RequestExport, ExportRequest } from './application/request-export.use-case';
export { RunExport, RunExportReport } from './application/run-export.use-case';
export { ExportsHousekeeping } from './application/exports-housekeeping';
export { ExportJobView } from './application/export-job-view';
export { RowLimits } from './application/exports.ports';
export { XLSX_MAX_DATA_ROWS, EXPORT_FORMATS, ExportFormat } from './domain/export-format';
export { EXPORT_PERIODS } from './domain/export-period';
export { LEAD_SEGMENTS } from './domain/lead-filter';
export const EXPORTS_MIGRATIONS = defineMigrations('exports', [Exports1763700010100]);
