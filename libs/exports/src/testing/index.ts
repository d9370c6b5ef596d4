// In-memory fakes of the exports module's ports, for use-case specs.
import { AppError } from '@outreach/core';
import type { Writable } from 'node:stream';
import { ContactCriteria, ExportCampaigns, ExportJobRepository, LeadSource, RowLimits, SheetWriter, SheetWriters } from '../application/exports.ports';
import { csvLine } from '../domain/csv-cell';
import type { ExportJobProps } from '../domain/export-job';
import type { ExportLead } from '../domain/export-lead';
import { XLSX_MAX_DATA_ROWS } from '../domain/export-format';

export class InMemoryExportJobRepository extends ExportJobRepository {
  readonly rows = new Map<string, ExportJobProps>();
  readonly progressWrites: number[] = [];

  async insert(job: ExportJobProps): Promise<void> {
    this.rows.set(job.id, structuredClone(job));
  }
  async find(workspaceId: string, id: string): Promise<ExportJobProps | null> {
    const job = this.rows.get(id);
    return job && job.workspaceId === workspaceId ? structuredClone(job) : null;
  }
  async findById(id: string): Promise<ExportJobProps | null> {
    const job = this.rows.get(id);
    return job ? structuredClone(job) : null;
  }
  async listByCampaign(workspaceId: string, campaignId: string, page: { offset: number; limit: number }) {
    const all = [...this.rows.values()]
      .filter((j) => j.workspaceId === workspaceId && j.campaignId === campaignId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return { items: all.slice(page.offset, page.offset + page.limit).map((j) => structuredClone(j)), total: all.length };
  }
  async update(job: ExportJobProps): Promise<void> {
    this.rows.set(job.id, structuredClone(job));
  }
  async setProgress(id: string, progress: number): Promise<void> {
    this.progressWrites.push(progress);
    const job = this.rows.get(id);
    if (job?.status === 'running') job.progress = progress;
  }
  async expiredWithFiles(now: Date, limit: number): Promise<ExportJobProps[]> {
    return [...this.rows.values()]
      .filter((j) => j.status === 'ready' && !j.fileDeletedAt && j.expiresAt && j.expiresAt <= now)
      .slice(0, limit)
      .map((j) => structuredClone(j));
  }
  async markFileDeleted(id: string, at: Date): Promise<void> {
    this.rows.get(id)!.fileDeletedAt = at;
  }
}

/** Leads of campaigns held in memory; contact criteria applied as the SQL does. */
export class InMemoryLeadSource extends LeadSource {
  readonly leads = new Map<string, ExportLead[]>();
  pageSize = 2;
  /** Throws while reading the n-th page (1-based), to simulate a failure mid-export. */
  failOnPage: number | null = null;

  count(_ws: string, campaignId: string, criteria: ContactCriteria): Promise<number> {
    return Promise.resolve(this.select(campaignId, criteria).length);
  }
  async fieldKeys(_ws: string, campaignId: string): Promise<string[]> {
    return [...new Set((this.leads.get(campaignId) ?? []).flatMap((l) => Object.keys(l.fields)))].sort();
  }
  async *pages(_ws: string, campaignId: string, criteria: ContactCriteria): AsyncIterable<ExportLead[]> {
    const all = this.select(campaignId, criteria);
    for (let i = 0, n = 1; i < all.length; i += this.pageSize, n += 1) {
      if (this.failOnPage === n) throw new Error('connection lost');
      yield all.slice(i, i + this.pageSize);
    }
  }
  private select(campaignId: string, c: ContactCriteria): ExportLead[] {
    return (this.leads.get(campaignId) ?? []).filter((l) => {
      const at = (l.lastAttemptAt ?? l.createdAt).getTime();
      return (
        (!c.statuses || c.statuses.includes(l.status)) &&
        (!c.outcomes || (l.lastOutcome !== null && c.outcomes.includes(l.lastOutcome))) &&
        (!c.activityFrom || at >= c.activityFrom.getTime()) &&
        (!c.activityTo || at < c.activityTo.getTime())
      );
    });
  }
}

export class InMemoryExportCampaigns extends ExportCampaigns {
  readonly campaigns = new Map<string, { workspaceId: string; name: string; extractionKeys: string[]; metricKeys: string[] }>();

  async describe(workspaceId: string, campaignId: string) {
    const c = this.campaigns.get(campaignId);
    if (!c || c.workspaceId !== workspaceId) throw new AppError('campaign_not_found');
    return { name: c.name, extractionKeys: c.extractionKeys, metricKeys: c.metricKeys };
  }
}

export class FixedRowLimits extends RowLimits {
  constructor(public max = XLSX_MAX_DATA_ROWS) {
    super();
  }
  xlsxMaxRows(): number {
    return this.max;
  }
}

let seq = 0;
/** A lead with sensible defaults. */
export function aLead(overrides: Partial<ExportLead> = {}): ExportLead {
  seq += 1;
  return {
    contactId: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    seq,
    phone: '+14155550100',
    name: 'Ann',
    fields: {},
    status: 'COMPLETED',
    attempts: 1,
    lastOutcome: 'completed',
    lastAttemptAt: new Date('2026-11-20T10:00:00Z'),
    connectedPhone: '+14155550100',
    createdAt: new Date('2026-11-01T00:00:00Z'),
    finalCall: null,
    ...overrides,
  };
}

/** Writes every format as CSV lines (the real XLSX writer is tested through the app). */
export class CsvLinesSheetWriters extends SheetWriters {
  open(_format: string, stream: Writable): SheetWriter {
    return {
      rows: async (rows) => {
        for (const values of rows) stream.write(csvLine(values));
      },
      close: async () => {
        stream.end();
      },
    };
  }
}

export { InMemoryFileStore } from '../../../files/src/testing';
