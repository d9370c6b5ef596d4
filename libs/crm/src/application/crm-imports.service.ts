import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { CrmContactIntake, CrmImportDefaults } from '@outreach/campaigns';
import { AppConfig, AppError, Clock, isAppError, isUuid, Outbox, RetryLater, UnitOfWork } from '@outreach/core';
import { CrmConnectionProps } from '../domain/crm-connection';
import { applyImport, backoffMs, canApplyImport, CrmImportProps, importProgress } from '../domain/crm-import';
import { mapRecord, MappedContact } from '../domain/field-mapping';
import { CrmConnectionRepository, CrmImportRepository, CrmRateLimited } from './crm.ports';
import { CrmConnections } from './crm-connections.service';
import { crmImportJob } from './crm-jobs';

export interface CrmImportView {
  id: string;
  campaignId: string;
  connectionId: string;
  segmentId: string | null;
  status: string;
  progress: number;
  total: number | null;
  read: number;
  imported: number;
  duplicates: number;
  invalid: number;
  pages: number;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export function toImportView(p: CrmImportProps): CrmImportView {
  return {
    id: p.id,
    campaignId: p.campaignId,
    connectionId: p.connectionId,
    segmentId: p.segmentId,
    status: p.status,
    progress: importProgress(p),
    total: p.total,
    ...p.counts,
    pages: p.pages,
    error: p.error,
    createdAt: p.createdAt.toISOString(),
    startedAt: p.startedAt?.toISOString() ?? null,
    finishedAt: p.finishedAt?.toISOString() ?? null,
  };
}

/**
 * The segment an import reads (decisions.md 31.17): the one it names; null (named) for all
 * contacts; absent, the campaign's defaultCrmSegmentId when the import reads the campaign's
 * defaultCrmConnectionId (or the campaign names no connection): a segment id means something only
 * to its own CRM.
 */
export function importSegment(requested: string | null | undefined, defaults: CrmImportDefaults, connectionId: string): string | null {
  if (requested !== undefined) return requested;
  const sameCrm = defaults.connectionId === null || defaults.connectionId === connectionId;
  return sameCrm ? defaults.segmentId : null;
}

/** Upstream failures worth waiting out: unreachable, or the CRM's own 5xx. */
function isTransient(error: unknown): boolean {
  if (!isAppError(error)) return false;
  if (error.code === 'crm_upstream_unavailable') return true;
  return error.code === 'provider_error' && (error.options.upstreamStatus ?? 0) >= 500;
}

/**
 * CRM imports (POST /campaigns/{id}/crm-imports): the request checks the campaign, the connection
 * and the segment, then writes the import and its worker job in the campaign's transaction (the
 * campaign row is locked, so a delete cannot slip in). The worker reads page after page from the
 * stored cursor; each page's contacts and the next cursor commit together, so a worker that dies
 * loses at most the page it was reading and the next one starts from the cursor (duplicates are
 * impossible: the page is not committed, and the campaign refuses a phone twice anyway). A 429 or
 * an outage does not fail the import: the job comes back later (RetryLater) from the same cursor.
 */
@Injectable()
export class CrmImports {
  private readonly log = new Logger('CrmImports');

  constructor(
    private readonly connections: CrmConnections,
    private readonly connectionRepo: CrmConnectionRepository,
    private readonly imports: CrmImportRepository,
    private readonly intake: CrmContactIntake,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * 404 campaign_not_found → 404 crm_connection_not_found → 400 campaign_not_in_draft → 400
   * crm_connection_not_active → the segment at the CRM (404 crm_resource_not_found, 502s). The CRM
   * is asked outside any transaction; the campaign's state is checked again, locked, with the insert.
   */
  async request(workspaceId: string, campaignId: string, input: { connectionId: string; segmentId?: string | null }): Promise<CrmImportView> {
    await this.intake.assertExists(workspaceId, campaignId);
    const connection = await this.connections.require(workspaceId, input.connectionId);
    const defaults = await this.uow.run(() => this.intake.openForImport(workspaceId, campaignId));
    const open = this.connections.open(connection);
    const segmentId = importSegment(input.segmentId, defaults, connection.id);
    const total = segmentId ? (await open.provider.segment(open.credentials, segmentId)).size : null;
    const job = await this.uow.run(async () => {
      await this.intake.openForImport(workspaceId, campaignId);
      const now = this.clock.now();
      const job: CrmImportProps = {
        id: randomUUID(),
        workspaceId,
        campaignId,
        connectionId: connection.id,
        segmentId,
        status: 'pending',
        cursor: null,
        pages: 0,
        counts: { read: 0, imported: 0, duplicates: 0, invalid: 0 },
        total,
        failures: 0,
        error: null,
        createdAt: now,
        startedAt: null,
        finishedAt: null,
        updatedAt: now,
      };
      await this.imports.insert(job);
      await this.outbox.enqueue(crmImportJob(job.id));
      return job;
    });
    return toImportView(job);
  }

  async get(workspaceId: string, campaignId: string, importId: string): Promise<CrmImportView> {
    await this.intake.assertExists(workspaceId, campaignId);
    const job = isUuid(importId) ? await this.imports.find(workspaceId, campaignId, importId) : null;
    if (!job) throw new AppError('crm_import_not_found', { message: `no CRM import ${importId} in campaign ${campaignId}` });
    return toImportView(job);
  }

  async hasInProgress(workspaceId: string, campaignId: string): Promise<boolean> {
    return this.imports.hasInProgress(workspaceId, campaignId);
  }

  /** The worker's job: pages until the last one, or until the CRM asks to wait (RetryLater). */
  async run(payload: { importId: string }): Promise<{ importId: string; status: string }> {
    for (;;) {
      const step = await this.step(payload.importId);
      if (step !== 'more') return { importId: payload.importId, status: step };
    }
  }

  /**
   * One page: mark the import running and take its cursor (one transaction), read the page from the
   * CRM (no transaction open), then add its contacts and move the cursor in one transaction with the
   * import row locked, only if the cursor is still the one read (else another worker took the page).
   * Returns the import's status when there is nothing more to do.
   */
  private async step(importId: string): Promise<'more' | string> {
    type Begun = { done: string } | { job: CrmImportProps; connection: CrmConnectionProps };
    const begun = await this.uow.run(async (): Promise<Begun> => {
      const job = await this.imports.findForUpdate(importId);
      if (!job) return { done: 'missing' };
      if (!canApplyImport(job.status, 'start')) return { done: job.status };
      const connection = await this.connectionRepo.findById(job.connectionId);
      if (!connection || connection.status !== 'ACTIVE') return { done: await this.finish(job, 'fail', 'crm_connection_not_active') };
      if (job.status === 'pending') {
        job.startedAt = this.clock.now();
        job.status = applyImport(job.status, 'start');
        job.updatedAt = job.startedAt;
        await this.imports.update(job);
      }
      return { job, connection };
    });
    if ('done' in begun) return begun.done;
    const { job, connection } = begun;
    const open = this.connections.open(connection);
    const limit = Math.min(this.config.crmImportPageSize, open.provider.maxPageSize);
    try {
      const page = await open.provider.contacts(open.credentials, { segmentId: job.segmentId, cursor: job.cursor, limit });
      const contacts = page.records.map((r) => mapRecord(r, connection.mappings, open.provider.defaults)).filter((c): c is MappedContact => c !== null);
      return await this.uow.run(async () => {
        const current = await this.imports.findForUpdate(importId);
        if (!current || current.status !== 'running' || current.cursor !== job.cursor || current.pages !== job.pages) return 'more';
        const added = await this.intake.addImported(current.workspaceId, current.campaignId, contacts);
        current.counts.read += page.records.length;
        current.counts.imported += added.imported;
        current.counts.duplicates += added.duplicates;
        current.counts.invalid += added.invalid + (page.records.length - contacts.length);
        current.pages += 1;
        current.failures = 0;
        current.cursor = page.nextCursor;
        if (current.total === null && page.total !== null) current.total = page.total;
        if (page.nextCursor === null || page.records.length === 0) return this.finish(current, 'complete', null);
        current.updatedAt = this.clock.now();
        await this.imports.update(current);
        return 'more';
      });
    } catch (error) {
      return this.afterFailure(importId, error);
    }
  }

  /** 429: wait (not counted). Outage or 5xx: wait longer each time, fail after CRM_RETRY_MAX_FAILURES. Anything else fails. */
  private async afterFailure(importId: string, error: unknown): Promise<string> {
    // Anything but the CRM's answers (a database outage, say) is the queue's business: it retries the job.
    if (!(error instanceof CrmRateLimited) && !isAppError(error)) throw error;
    if (error instanceof CrmRateLimited) {
      throw new RetryLater(error.retryAfterMs ?? this.config.crmRetryBaseMs, `CRM import ${importId}: the CRM answered 429`);
    }
    const retryIn = await this.uow.run(async () => {
      const job = await this.imports.findForUpdate(importId);
      if (!job || job.status !== 'running') return null;
      if (isTransient(error) && job.failures + 1 < this.config.crmRetryMaxFailures) {
        job.failures += 1;
        job.updatedAt = this.clock.now();
        await this.imports.update(job);
        return backoffMs(this.config.crmRetryBaseMs, job.failures);
      }
      this.log.warn(`CRM import ${job.id} failed: ${isAppError(error) ? error.code : 'unknown'}`);
      await this.finish(job, 'fail', isAppError(error) ? error.code : 'crm_upstream_error');
      return null;
    });
    if (retryIn !== null) throw new RetryLater(retryIn, `CRM import ${importId}: the CRM is unavailable`);
    return 'failed';
  }

  private async finish(job: CrmImportProps, event: 'complete' | 'fail', error: string | null): Promise<string> {
    const now = this.clock.now();
    job.status = applyImport(job.status, event);
    job.error = error;
    job.finishedAt = now;
    job.updatedAt = now;
    await this.imports.update(job);
    return job.status;
  }
}
