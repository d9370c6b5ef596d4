import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig, AppError, Clock, isExcelMangledPhone, UnitOfWork } from '@outreach/core';
import { SpreadsheetReader, UploadRow, UploadStore } from './campaigns.ports';

/** Rows per `COPY … FROM STDIN` into upload_rows. */
const STORE_BATCH_SIZE = 5000;
const PREVIEW_ROWS = 5;
const MAX_COLUMNS = 200;
/** Header names that say "this column holds phone numbers" (checked for Excel's scientific notation). */
const PHONE_HEADER = /phone|mobile|cell|msisdn|whatsapp|contact[ _-]?number|^tel|number$/i;

export interface UploadedFile {
  buffer: Buffer;
  fileName: string;
  mimeType: string;
}

export interface UploadResult {
  uploadId: string;
  fileName: string;
  columns: string[];
  rowCount: number;
  /** The first rows, as column → value. */
  preview: Array<Record<string, string>>;
  expiresAt: string;
}

/**
 * POST /uploads: reads a CSV or XLSX file row by row and keeps its rows server-side for
 * UPLOAD_TTL_HOURS, so a campaign can import them (uploadId + phoneColumn). The whole upload is
 * one transaction: a file refused halfway leaves nothing behind.
 */
@Injectable()
export class UploadIntake {
  constructor(
    private readonly reader: SpreadsheetReader,
    private readonly uploads: UploadStore,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async intake(workspaceId: string, file: UploadedFile): Promise<UploadResult> {
    const now = this.clock.now();
    const id = randomUUID();
    const expiresAt = new Date(now.getTime() + this.config.uploadTtlHours * 3600_000);
    await this.uploads.deleteExpired(now, 100);

    return this.uow.run(async () => {
      let columns: string[] | null = null;
      let phoneLike: number[] = [];
      let rowNo = 0;
      let batch: UploadRow[] = [];
      const preview: Array<Record<string, string>> = [];

      for await (const cells of this.reader.rows(file)) {
        if (columns === null) {
          columns = checkHeader(cells);
          phoneLike = columns.flatMap((c, i) => (PHONE_HEADER.test(c) ? [i] : []));
          await this.uploads.create({ id, workspaceId, fileName: file.fileName, columns, expiresAt, createdAt: now });
          continue;
        }
        rowNo += 1;
        const row = fitRow(cells, columns.length, rowNo);
        for (const i of phoneLike) {
          if (isExcelMangledPhone(row[i])) {
            throw new AppError('excel_mangled_phone', {
              message: `column ${columns[i]} holds ${row[i]} in row ${rowNo} (scientific notation): Excel dropped the number's digits. Format the column as text and export again`,
              detail: { column: columns[i], row: rowNo, value: row[i] },
            });
          }
        }
        if (preview.length < PREVIEW_ROWS) preview.push(Object.fromEntries(columns.map((c, i) => [c, row[i]])));
        batch.push({ rowNo, cells: row });
        if (batch.length >= STORE_BATCH_SIZE) {
          await this.uploads.appendRows(id, batch);
          batch = [];
        }
      }
      if (columns === null || rowNo === 0) {
        throw new AppError('invalid_csv_format', { message: 'the file needs a header row and at least one data row' });
      }
      await this.uploads.appendRows(id, batch);
      await this.uploads.finish(id, rowNo);
      return { uploadId: id, fileName: file.fileName, columns, rowCount: rowNo, preview, expiresAt: expiresAt.toISOString() };
    });
  }
}

function checkHeader(cells: string[]): string[] {
  const columns = cells.map((c) => c.trim());
  while (columns.length > 0 && columns[columns.length - 1] === '') columns.pop();
  const problem =
    columns.length === 0
      ? 'the header row is empty'
      : columns.length > MAX_COLUMNS
        ? `more than ${MAX_COLUMNS} columns`
        : columns.some((c) => c === '')
          ? 'every column needs a name in the header row'
          : new Set(columns.map((c) => c.toLowerCase())).size !== columns.length
            ? 'column names must be unique'
            : null;
  if (problem) throw new AppError('invalid_csv_format', { message: `invalid header: ${problem}` });
  return columns;
}

/** Pads short rows; a row with more non-empty cells than the header is a broken file. */
function fitRow(cells: string[], width: number, rowNo: number): string[] {
  if (cells.length > width && cells.slice(width).some((c) => c !== '')) {
    throw new AppError('invalid_csv_format', { message: `row ${rowNo} has more cells than the header has columns` });
  }
  const row = cells.slice(0, width);
  while (row.length < width) row.push('');
  return row;
}
