import type { Writable } from 'node:stream';
import { FileStore, FileUpload } from '@outreach/files';
import type { ExportFormat } from '../domain/export-format';
import type { ExportJobProps } from '../domain/export-job';
import type { ExportLead } from '../domain/export-lead';
import type { CellValue, ReportShape } from '../domain/export-columns';

/** The export jobs table. */
export abstract class ExportJobRepository {
  abstract insert(job: ExportJobProps): Promise<void>;
  abstract find(workspaceId: string, id: string): Promise<ExportJobProps | null>;
  /** For the worker: by id alone (the job payload carries the id). */
  abstract findById(id: string): Promise<ExportJobProps | null>;
  abstract listByCampaign(workspaceId: string, campaignId: string, page: { offset: number; limit: number }): Promise<{ items: ExportJobProps[]; total: number }>;
  /** Writes the job's mutable fields (status, progress, counts, file, times). */
  abstract update(job: ExportJobProps): Promise<void>;
  abstract setProgress(id: string, progress: number): Promise<void>;
  /** Ready jobs whose files are past expiresAt and not yet deleted, oldest first. */
  abstract expiredWithFiles(now: Date, limit: number): Promise<ExportJobProps[]>;
  abstract markFileDeleted(id: string, at: Date): Promise<void>;
}

/** What a report needs to know about its campaign; 404 campaign_not_found for another workspace's. */
export abstract class ExportCampaigns {
  abstract describe(workspaceId: string, campaignId: string): Promise<{ name: string; extractionKeys: string[]; metricKeys: string[] }>;
}

/** Contact members of a filter, answered by the campaigns module's SQL. */
export interface ContactCriteria {
  statuses?: string[];
  outcomes?: string[];
  activityFrom: Date | null;
  activityTo: Date | null;
}

/** The campaign's leads (contacts with their last campaign call), from the modules that own them. */
export abstract class LeadSource {
  abstract count(workspaceId: string, campaignId: string, criteria: ContactCriteria): Promise<number>;
  /** Pages of leads in upload order; each page is read when the previous one has been consumed. */
  abstract pages(workspaceId: string, campaignId: string, criteria: ContactCriteria): AsyncIterable<ExportLead[]>;
  /** Keys of the contacts' uploaded fields, sorted. */
  abstract fieldKeys(workspaceId: string, campaignId: string): Promise<string[]>;
}

/** Writes one sheet of rows to a stream in a format. */
export interface SheetWriter {
  /**
   * Appends rows, a page at a time (one await per page, not per row), taking each row from the
   * iterable as it writes it, so a row's cells are garbage before the next is made.
   */
  rows(rows: Iterable<readonly CellValue[]>): Promise<void>;
  /** Flushes and ends the stream. */
  close(): Promise<void>;
}

export abstract class SheetWriters {
  abstract open(format: ExportFormat, stream: Writable, sheetName: string): SheetWriter;
}

/** The XLSX data-row limit in force: the sheet's (1,048,575), narrowed only by tests (decisions.md 26.7). */
export abstract class RowLimits {
  abstract xlsxMaxRows(): number;
}

export type { ReportShape };
// The file store is the shared port of @outreach/files (decisions.md 39.2); re-exported for this module's code.
export { FileStore, FileUpload };
