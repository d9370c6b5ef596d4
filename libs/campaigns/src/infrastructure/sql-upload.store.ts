import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { UploadMeta, UploadRow, UploadStore } from '../application/campaigns.ports';
import { UPLOAD_ROWS as R } from './persistence/upload-row.table';
import { UPLOADS as U } from './persistence/upload.table';
import { arrayLiteral, copyIntoTable, copyText } from './pg-copy';

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

  /** The rows stream into upload_rows through `COPY … FROM STDIN` (decisions.md 43.1). */
  async appendRows(uploadId: string, rows: readonly UploadRow[]): Promise<void> {
    if (rows.length === 0) return;
    await copyIntoTable(
      this.tx,
      `COPY ${R.name} (${R.select(undefined, ['uploadId', 'rowNo', 'cells'])}) FROM STDIN`,
      rows.map((r) => `${uploadId}\t${r.rowNo}\t${copyText(arrayLiteral(r.cells))}\n`),
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

  async readRows(uploadId: string, afterRowNo: number, limit: number, columns?: readonly number[]): Promise<UploadRow[]> {
    // Only the cells asked for travel (an import reads its phone columns; the rest stays in SQL).
    const cells = columns
      ? `ARRAY[${columns.map((i) => `${R.c.cells}[${Math.trunc(i) + 1}]`).join(', ') || 'NULL'}]::text[] AS ${R.c.cells}`
      : R.c.cells;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${R.c.rowNo}, ${cells} FROM ${R.name}
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
