import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { UploadMeta, UploadRow, UploadStore } from '../application/campaigns.ports';
import { UPLOAD_ROWS as R } from './persistence/upload-row.table';
import { UPLOADS as U } from './persistence/upload.table';

type Row = Record<string, unknown>;

/** Uploaded rows kept server-side until they expire; a campaign import reads them in keyset pages. */
@Injectable()
export class SqlUploadStore extends UploadStore {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async create(meta: Omit<UploadMeta, 'rowCount'>): Promise<void> {
    const { sql, params } = U.insert({ ...meta, rowCount: 0 });
    await this.tx.manager.query(sql, params);
  }

  async appendRows(uploadId: string, rows: readonly UploadRow[]): Promise<void> {
    if (rows.length === 0) return;
    // A text[][] parameter would need equal-length rows; each row travels as one JSON array instead.
    await this.tx.manager.query(
      `INSERT INTO ${R.name} (${R.select(undefined, ['uploadId', 'rowNo', 'cells'])})
       SELECT $1, r.row_no, ARRAY(SELECT jsonb_array_elements_text(r.cells))
         FROM unnest($2::int[], $3::jsonb[]) AS r(row_no, cells)`,
      [uploadId, rows.map((r) => r.rowNo), rows.map((r) => JSON.stringify(r.cells))],
    );
  }

  async finish(uploadId: string, rowCount: number): Promise<void> {
    await this.tx.manager.query(`UPDATE ${U.name} SET ${U.c.rowCount} = $2 WHERE ${U.c.id} = $1`, [uploadId, rowCount]);
  }

  async find(workspaceId: string, uploadId: string, now: Date): Promise<UploadMeta | null> {
    if (!isUuid(uploadId)) return null;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${U.select()} FROM ${U.name} WHERE ${U.c.id} = $1 AND ${U.c.workspaceId} = $2 AND ${U.c.expiresAt} > $3`,
      [uploadId, workspaceId, now],
    );
    return rows[0] ? U.fromRow(rows[0]) : null;
  }

  async readRows(uploadId: string, afterRowNo: number, limit: number): Promise<UploadRow[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${R.select(undefined, ['rowNo', 'cells'])} FROM ${R.name}
        WHERE ${R.c.uploadId} = $1 AND ${R.c.rowNo} > $2 ORDER BY ${R.c.rowNo} LIMIT $3`,
      [uploadId, afterRowNo, limit],
    );
    return rows.map((row) => R.fromRow(row, ['rowNo', 'cells']));
  }

  async deleteExpired(now: Date, limit: number): Promise<number> {
    const [, affected]: [unknown[], number] = await this.tx.manager.query(
      `DELETE FROM ${U.name} WHERE ${U.c.id} IN (SELECT ${U.c.id} FROM ${U.name} WHERE ${U.c.expiresAt} <= $1 ORDER BY ${U.c.expiresAt} LIMIT $2)`,
      [now, limit],
    );
    return affected;
  }
}
