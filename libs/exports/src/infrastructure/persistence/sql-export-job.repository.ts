import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { ExportJobRepository } from '../../application/exports.ports';
import type { ExportJobProps } from '../../domain/export-job';
import { EXPORT_JOBS } from './export-job.table';

type Row = Record<string, unknown>;
const J = EXPORT_JOBS.c;
const MUTABLE = ['status', 'progress', 'rowCount', 'fileKey', 'error', 'startedAt', 'finishedAt', 'expiresAt', 'fileDeletedAt'] as const;

@Injectable()
export class SqlExportJobRepository extends ExportJobRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(job: ExportJobProps): Promise<void> {
    const { sql, params } = EXPORT_JOBS.insert(job);
    await this.tx.manager.query(sql, params);
  }

  async find(workspaceId: string, id: string): Promise<ExportJobProps | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${EXPORT_JOBS.select()} FROM ${EXPORT_JOBS.name} WHERE ${J.id} = $1 AND ${J.workspaceId} = $2`, [id, workspaceId]);
    return rows.length ? EXPORT_JOBS.fromRow(rows[0]) : null;
  }

  async findById(id: string): Promise<ExportJobProps | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${EXPORT_JOBS.select()} FROM ${EXPORT_JOBS.name} WHERE ${J.id} = $1`, [id]);
    return rows.length ? EXPORT_JOBS.fromRow(rows[0]) : null;
  }

  async listByCampaign(workspaceId: string, campaignId: string, page: { offset: number; limit: number }): Promise<{ items: ExportJobProps[]; total: number }> {
    const where = `${J.workspaceId} = $1 AND ${J.campaignId} = $2`;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${EXPORT_JOBS.select()} FROM ${EXPORT_JOBS.name} WHERE ${where} ORDER BY ${J.createdAt} DESC, ${J.id} DESC OFFSET $3 LIMIT $4`,
      [workspaceId, campaignId, page.offset, page.limit],
    );
    const [{ total }]: Array<{ total: number }> = await this.tx.manager.query(`SELECT count(*)::int AS total FROM ${EXPORT_JOBS.name} WHERE ${where}`, [workspaceId, campaignId]);
    return { items: rows.map((row) => EXPORT_JOBS.fromRow(row)), total };
  }

  async update(job: ExportJobProps): Promise<void> {
    const { sql, params } = EXPORT_JOBS.update(job, ['id'], MUTABLE);
    await this.tx.manager.query(sql, params);
  }

  async setProgress(id: string, progress: number): Promise<void> {
    await this.tx.manager.query(`UPDATE ${EXPORT_JOBS.name} SET ${J.progress} = $2 WHERE ${J.id} = $1 AND ${J.status} = 'running'`, [id, progress]);
  }

  async expiredWithFiles(now: Date, limit: number): Promise<ExportJobProps[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${EXPORT_JOBS.select()} FROM ${EXPORT_JOBS.name}
        WHERE ${J.status} = 'ready' AND ${J.fileDeletedAt} IS NULL AND ${J.expiresAt} <= $1
        ORDER BY ${J.expiresAt} LIMIT $2`,
      [now, limit],
    );
    return rows.map((row) => EXPORT_JOBS.fromRow(row));
  }

  async markFileDeleted(id: string, at: Date): Promise<void> {
    await this.tx.manager.query(`UPDATE ${EXPORT_JOBS.name} SET ${J.fileDeletedAt} = $2 WHERE ${J.id} = $1`, [id, at]);
  }
}
