import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, Outbox, UnitOfWork } from '@outreach/core';
import { reportColumns } from '../domain/export-columns';
import { assertFitsFormat, EXPORT_EXTENSIONS, ExportFormat } from '../domain/export-format';
import { ExportJobProps } from '../domain/export-job';
import { resolveExportPeriod } from '../domain/export-period';
import { LeadFilter, LeadSegment, segmentFilter } from '../domain/lead-filter';
import { ExportJobView, toExportJobView } from './export-job-view';
import { ExportCampaigns, ExportJobRepository, LeadSource, RowLimits } from './exports.ports';
import { runExportJob } from './exports-jobs';
import { LeadCounter } from './lead-counter';

export interface ExportRequest {
  format: ExportFormat;
  period: string;
  from?: Date | null;
  to?: Date | null;
  segment?: LeadSegment | null;
  filter?: LeadFilter | null;
  columns?: string[] | null;
}

/** A file name made of the campaign's name: ASCII letters, digits, '-' and '_' only. */
export function exportFileName(campaignName: string, period: string, at: Date, format: ExportFormat): string {
  const slug = campaignName.normalize('NFKD').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'campaign';
  return `${slug}-${period}-${at.toISOString().slice(0, 10)}.${EXPORT_EXTENSIONS[format]}`;
}

/**
 * POST /campaigns/{id}/exports: checks the period, the campaign, the columns and (XLSX) the row
 * count before any work starts, then writes the job and its worker job in one transaction (202).
 */
@Injectable()
export class RequestExport {
  constructor(
    private readonly campaigns: ExportCampaigns,
    private readonly leads: LeadSource,
    private readonly counter: LeadCounter,
    private readonly jobs: ExportJobRepository,
    private readonly limits: RowLimits,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(workspaceId: string, campaignId: string, input: ExportRequest): Promise<ExportJobView> {
    const now = this.clock.now();
    const range = resolveExportPeriod(input, now);
    if (input.segment && input.filter) {
      throw new AppError('invalid_body', { message: 'send segment or filter, not both', issues: [{ path: 'filter', message: 'segment and filter are exclusive' }] });
    }
    const campaign = await this.campaigns.describe(workspaceId, campaignId);
    const fieldKeys = await this.leads.fieldKeys(workspaceId, campaignId);
    reportColumns({ fieldKeys, extractionKeys: campaign.extractionKeys, metricKeys: campaign.metricKeys }, input.columns ?? undefined);
    const filter = input.segment ? segmentFilter(input.segment) : (input.filter ?? {});
    const expectedRows = await this.counter.count(workspaceId, campaignId, filter, range);
    assertFitsFormat(input.format, expectedRows, this.limits.xlsxMaxRows());

    const job: ExportJobProps = {
      id: randomUUID(),
      workspaceId,
      campaignId,
      format: input.format,
      status: 'queued',
      progress: 0,
      expectedRows,
      rowCount: null,
      spec: {
        period: range.period,
        from: range.from?.toISOString() ?? null,
        to: range.to?.toISOString() ?? null,
        segment: input.segment ?? null,
        filter: input.filter ?? null,
        columns: input.columns ?? null,
      },
      fileKey: null,
      fileName: exportFileName(campaign.name, range.period, now, input.format),
      error: null,
      createdAt: now,
      startedAt: null,
      finishedAt: null,
      expiresAt: null,
      fileDeletedAt: null,
    };
    await this.uow.run(async () => {
      await this.jobs.insert(job);
      await this.outbox.enqueue(runExportJob(job.id));
    });
    return toExportJobView(job, now);
  }
}
