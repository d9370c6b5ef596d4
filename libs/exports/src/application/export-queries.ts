import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, isUuid } from '@outreach/core';
import { EXPORT_MEDIA_TYPES } from '../domain/export-format';
import { ExportJobProps, isExpired } from '../domain/export-job';
import { ExportJobView, toExportJobView } from './export-job-view';
import { ExportCampaigns, ExportJobRepository, FileStore } from './exports.ports';

export interface ExportDownload {
  stream: Readable;
  fileName: string;
  mediaType: string;
}

/** GET /exports/{id}, GET /exports/{id}/download, GET /campaigns/{id}/exports. */
@Injectable()
export class ExportQueries {
  constructor(
    private readonly jobs: ExportJobRepository,
    private readonly campaigns: ExportCampaigns,
    private readonly store: FileStore,
    private readonly clock: Clock,
  ) {}

  async get(workspaceId: string, id: string): Promise<ExportJobView> {
    return toExportJobView(await this.require(workspaceId, id), this.clock.now());
  }

  async list(workspaceId: string, campaignId: string, page: { offset: number; limit: number }): Promise<{ items: ExportJobView[]; total: number }> {
    await this.campaigns.describe(workspaceId, campaignId);
    const { items, total } = await this.jobs.listByCampaign(workspaceId, campaignId, page);
    const now = this.clock.now();
    return { items: items.map((j) => toExportJobView(j, now)), total };
  }

  /** The ready file; 410 expired past expiresAt (or once housekeeping deleted it). */
  async download(workspaceId: string, id: string): Promise<ExportDownload> {
    const job = await this.require(workspaceId, id);
    if (job.status !== 'ready' || !job.fileKey) {
      throw new AppError('invalid_request', { message: `export ${id} is ${job.status}, not ready: poll GET /exports/${id}`, detail: { status: job.status } });
    }
    if (isExpired(job, this.clock.now())) throw new AppError('expired', { message: `export ${id} expired at ${job.expiresAt?.toISOString()}` });
    const stream = await this.store.open(job.fileKey);
    if (!stream) throw new AppError('expired', { message: `the file of export ${id} is gone` });
    return { stream, fileName: job.fileName, mediaType: EXPORT_MEDIA_TYPES[job.format] };
  }

  private async require(workspaceId: string, id: string): Promise<ExportJobProps> {
    const job = isUuid(id) ? await this.jobs.find(workspaceId, id) : null;
    if (!job) throw new AppError('not_found', { message: `no export ${id}` });
    return job;
  }
}
