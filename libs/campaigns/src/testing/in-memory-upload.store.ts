import { UploadMeta, UploadRow, UploadStore } from '../application/campaigns.ports';

/** Uploaded spreadsheets in memory: the header as `columns`, the rows in order. */
export class PagedUploadStore extends UploadStore {
  readonly uploads = new Map<string, UploadMeta & { rows: UploadRow[] }>();
  /** The page sizes readers asked for (memory stays flat only if they page). */
  readonly reads: number[] = [];

  /** Test setup: an upload with these columns and rows of cells (row numbers from 1). */
  seed(meta: Omit<UploadMeta, 'rowCount'>, rows: string[][]): UploadMeta {
    const stored = { ...meta, rowCount: rows.length, rows: rows.map((cells, i) => ({ rowNo: i + 1, cells })) };
    this.uploads.set(meta.id, stored);
    return this.meta(stored);
  }

  async create(meta: Omit<UploadMeta, 'rowCount'>): Promise<void> {
    this.uploads.set(meta.id, { ...meta, rowCount: 0, rows: [] });
  }

  async appendRows(uploadId: string, rows: readonly UploadRow[]): Promise<void> {
    this.uploads.get(uploadId)!.rows.push(...rows);
  }

  async finish(uploadId: string, rowCount: number): Promise<void> {
    this.uploads.get(uploadId)!.rowCount = rowCount;
  }

  async find(workspaceId: string, uploadId: string, now: Date): Promise<UploadMeta | null> {
    const upload = this.uploads.get(uploadId);
    return upload && upload.workspaceId === workspaceId && upload.expiresAt > now ? this.meta(upload) : null;
  }

  async readRows(uploadId: string, afterRowNo: number, limit: number): Promise<UploadRow[]> {
    this.reads.push(limit);
    return (this.uploads.get(uploadId)?.rows ?? []).filter((r) => r.rowNo > afterRowNo).slice(0, limit);
  }

  async deleteExpired(now: Date, limit: number): Promise<number> {
    const expired = [...this.uploads.values()].filter((u) => u.expiresAt <= now).slice(0, limit);
    for (const u of expired) this.uploads.delete(u.id);
    return expired.length;
  }

  private meta({ rows: _rows, ...meta }: UploadMeta & { rows: UploadRow[] }): UploadMeta {
    return { ...meta, columns: [...meta.columns] };
  }
}
