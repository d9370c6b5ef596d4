import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import * as ExcelJS from 'exceljs';
import { SheetWriter, SheetWriters } from '../application/exports.ports';
import { csvLine } from '../domain/csv-cell';
import type { CellValue } from '../domain/export-columns';
import type { ExportFormat } from '../domain/export-format';

const FLUSH_AT = 64 * 1024;

async function write(stream: Writable, chunk: string | Buffer): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

async function end(stream: Writable): Promise<void> {
  stream.end();
  if (!stream.writableFinished) await once(stream, 'finish');
}

/** CSV (RFC 4180, UTF-8 with a BOM so spreadsheets pick the encoding), formula cells escaped. */
export class CsvSheetWriter implements SheetWriter {
  private buffer = '\uFEFF';

  constructor(private readonly stream: Writable) {}

  async row(values: readonly CellValue[]): Promise<void> {
    this.buffer += csvLine(values);
    if (this.buffer.length >= FLUSH_AT) await this.flush();
  }

  async close(): Promise<void> {
    await this.flush();
    await end(this.stream);
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer;
    this.buffer = '';
    await write(this.stream, chunk);
  }
}

/**
 * XLSX through exceljs's streaming WorkbookWriter: each row is committed (serialised and handed to
 * the zip stream) as it is added, so memory stays flat. Strings are plain string cells (never
 * formulas), without shared strings or styles.
 */
export class XlsxSheetWriter implements SheetWriter {
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheet: ExcelJS.Worksheet;
  private readonly finished: Promise<unknown>;

  constructor(stream: Writable, sheetName: string) {
    this.finished = once(stream, 'finish');
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
    this.sheet = this.workbook.addWorksheet(sheetName);
  }

  async row(values: readonly CellValue[]): Promise<void> {
    this.sheet.addRow(values as CellValue[]).commit();
  }

  async close(): Promise<void> {
    this.sheet.commit();
    await this.workbook.commit();
    await this.finished;
  }
}

@Injectable()
export class StreamingSheetWriters extends SheetWriters {
  open(format: ExportFormat, stream: Writable, sheetName: string): SheetWriter {
    return format === 'XLSX' ? new XlsxSheetWriter(stream, sheetName) : new CsvSheetWriter(stream);
  }
}
