import { Injectable, Logger } from '@nestjs/common';
import { AppConfig, AppError, Clock } from '@outreach/core';
import { reportColumns } from '../domain/export-columns';
import { EXPORT_EXTENSIONS } from '../domain/export-format';
import { canApply, ExportJobProps, ProgressThrottle, progressOf } from '../domain/export-job';
import { LeadFilter, matchesLead, segmentFilter } from '../domain/lead-filter';
import { ExportCampaigns, ExportJobRepository, FileStore, FileUpload, LeadSource, SheetWriters } from './exports.ports';
import { contactCriteria } from './lead-counter';

const HOUR_MS = 3600 * 1000;

export interface RunExportReport {
  exportId: string;
  status: ExportJobProps['status'] | 'missing' | 'skipped';
  rowCount?: number;
}

/**
 * The worker's job: writes the whole file again from the first row (a job that was running when
 * its worker died starts over), to a temporary name made visible only when complete; progress is
 * persisted at most once a second; ready jobs get expiresAt = finish + EXPORT_TTL_HOURS.
 */
@Injectable()
export class RunExport {
  private readonly log = new Logger('RunExport');

  constructor(
    private readonly jobs: ExportJobRepository,
    private readonly campaigns: ExportCampaigns,
    private readonly leads: LeadSource,
    private readonly store: FileStore,
    private readonly writers: SheetWriters,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async execute(payload: { exportId: string }): Promise<RunExportReport> {
    const job = await this.jobs.findById(payload.exportId);
    if (!job) return { exportId: payload.exportId, status: 'missing' };
    if (!canApply(job.status, 'start')) return { exportId: job.id, status: 'skipped' };
    Object.assign(job, { status: 'running', progress: 0, startedAt: this.clock.now(), error: null });
    await this.jobs.update(job);

    const key = `${job.workspaceId}/${job.id}.${EXPORT_EXTENSIONS[job.format]}`;
    let upload: FileUpload | null = null;
    try {
      const campaign = await this.campaigns.describe(job.workspaceId, job.campaignId);
      const fieldKeys = await this.leads.fieldKeys(job.workspaceId, job.campaignId);
      const columns = reportColumns({ fieldKeys, extractionKeys: campaign.extractionKeys, metricKeys: campaign.metricKeys }, job.spec.columns ?? undefined);
      const filter: LeadFilter = job.spec.segment ? segmentFilter(job.spec.segment) : (job.spec.filter ?? {});
      const range = { from: job.spec.from ? new Date(job.spec.from) : null, to: job.spec.to ? new Date(job.spec.to) : null };

      upload = await this.store.begin(key);
      const sheet = this.writers.open(job.format, upload.stream, 'Leads');
      await sheet.rows([columns.map((c) => c.header)]);
      const throttle = new ProgressThrottle();
      throttle.due(Date.now()); // progress 0 was just written
      let written = 0;
      for await (const page of this.leads.pages(job.workspaceId, job.campaignId, contactCriteria(filter, range))) {
        await sheet.rows(
          (function* () {
            for (const lead of page) {
              if (!matchesLead(filter, lead)) continue;
              written += 1;
              yield columns.map((c) => c.value(lead));
            }
          })(),
        );
        if (throttle.due(Date.now())) await this.jobs.setProgress(job.id, progressOf(written, job.expectedRows));
      }
      await sheet.close();
      await upload.commit();
      const finishedAt = this.clock.now();
      Object.assign(job, {
        status: 'ready',
        progress: 100,
        rowCount: written,
        fileKey: key,
        finishedAt,
        expiresAt: new Date(finishedAt.getTime() + this.config.exportTtlHours * HOUR_MS),
      });
      await this.jobs.update(job);
      return { exportId: job.id, status: 'ready', rowCount: written };
    } catch (error) {
      await upload?.abort().catch(() => undefined);
      if (!(error instanceof AppError)) this.log.error(`export ${job.id} failed: ${(error as Error).message}`);
      Object.assign(job, { status: 'failed', error: error instanceof AppError ? error.code : 'internal_error', finishedAt: this.clock.now() });
      await this.jobs.update(job);
      return { exportId: job.id, status: 'failed' };
    }
  }
}
