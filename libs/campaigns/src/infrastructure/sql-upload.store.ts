import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { UploadMeta, UploadRow, UploadStore } from '../application/campaigns.ports';

type UploadRowRecord = {
  id: string;
  workspace_id: string;
  file_name: string;
  columns: string[];
  row_count: number;
  expires_at: Date;
  created_at: Date;
};

/** Uploaded rows kept server-side until they expire; a campaign import reads them in keyset pages. */
@Injectable()
export class SqlUploadStore extends UploadStore {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async create(meta: Omit<UploadMeta, 'rowCount'>): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO uploads (id, workspace_id, file_name, columns, row_count, expires_at, created_at) VALUES ($1, $2, $3, $4, 0, $5, $6)`,
      [meta.id, meta.workspaceId, meta.fileName, meta.columns, meta.expiresAt, meta.createdAt],
    );
  }

  async appendRows(uploadId: string, rows: readonly UploadRow[]): Promise<void> {
    if (rows.length === 0) return;
    // A text[][] parameter would need equal-length rows; each row travels as one JSON array instead.
    await this.tx.manager.query(
      `INSERT INTO upload_rows (upload_id, row_no, cells)
       SELECT $1, r.row_no, ARRAY(SELECT jsonb_array_elements_text(r.cells))
         FROM unnest($2::int[], $3::jsonb[]) AS r(row_no, cells)`,
      [uploadId, rows.map((r) => r.rowNo), rows.map((r) => JSON.stringify(r.cells))],
    );
  }

  async finish(uploadId: string, rowCount: number): Promise<void> {
    await this.tx.manager.query(`UPDATE uploads SET row_count = $2 WHERE id = $1`, [uploadId, rowCount]);
  }

  async find(workspaceId: string, uploadId: string, now: Date): Promise<UploadMeta | null> {
    if (!isUuid(uploadId)) return null;
    const rows: UploadRowRecord[] = await this.tx.manager.query(
      `SELECT * FROM uploads WHERE id = $1 AND workspace_id = $2 AND expires_at > $3`,
      [uploadId, workspaceId, now],
    );
    const r = rows[0];
    return r
      ? {
          id: r.id,
          workspaceId: r.workspace_id,
          fileName: r.file_name,
          columns: r.columns,
          rowCount: r.row_count,
          expiresAt: r.expires_at,
          createdAt: r.created_at,
        }
      : null;
  }

  async readRows(uploadId: string, afterRowNo: number, limit: number): Promise<UploadRow[]> {
    const rows: Array<{ row_no: number; cells: string[] }> = await this.tx.manager.query(
      `SELECT row_no, cells FROM upload_rows WHERE upload_id = $1 AND row_no > $2 ORDER BY row_no LIMIT $3`,
      [uploadId, afterRowNo, limit],
    );
    return rows.map((r) => ({ rowNo: r.row_no, cells: r.cells }));
  }

  async deleteExpired(now: Date, limit: number): Promise<number> {
    const [, affected]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM uploads WHERE id IN (SELECT id FROM uploads WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2)`,
      [now, limit],
    );
    return affected;
  }
}
