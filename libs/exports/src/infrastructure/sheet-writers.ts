import { once } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { ZipFile } from 'yazl';
import { SheetWriter, SheetWriters } from '../application/exports.ports';
import { csvLine } from '../domain/csv-cell';
import type { CellValue } from '../domain/export-columns';
import type { ExportFormat } from '../domain/export-format';
import { columnLetters, rowXml, SHEET_END, SHEET_START, workbookXml, XLSX_STATIC_PARTS } from '../domain/xlsx-parts';

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

  async rows(rows: Iterable<readonly CellValue[]>): Promise<void> {
    for (const values of rows) {
      this.buffer += csvLine(values);
      if (this.buffer.length >= FLUSH_AT) await this.flush();
    }
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
 * XLSX streamed row by row: the sheet's XML goes through yazl's deflate into the file as it is
 * written, with backpressure end to end (decisions.md 26.2), so memory stays flat at any size.
 */
export class XlsxSheetWriter implements SheetWriter {
  private readonly zip = new ZipFile();
  private readonly sheet = new PassThrough();
  private readonly finished: Promise<unknown>;
  private readonly letters: string[] = [];
  private buffer = SHEET_START;
  private rowNumber = 0;

  constructor(stream: Writable, sheetName: string) {
    this.finished = once(this.zip.outputStream.pipe(stream), 'finish');
    // A file error before close() is awaited must not become an unhandled rejection (close() still sees it).
    this.finished.catch(() => undefined);
    for (const [name, xml] of XLSX_STATIC_PARTS) this.zip.addBuffer(Buffer.from(xml), name);
    this.zip.addBuffer(Buffer.from(workbookXml(sheetName)), 'xl/workbook.xml');
    this.zip.addReadStream(this.sheet, 'xl/worksheets/sheet1.xml');
  }

  async rows(rows: Iterable<readonly CellValue[]>): Promise<void> {
    for (const values of rows) {
      while (this.letters.length < values.length) this.letters.push(columnLetters(this.letters.length));
      this.rowNumber += 1;
      this.buffer += rowXml(this.rowNumber, values, this.letters);
      if (this.buffer.length >= FLUSH_AT) await this.flush();
    }
  }

  async close(): Promise<void> {
    this.buffer += SHEET_END;
    await this.flush();
    this.sheet.end();
    this.zip.end();
    await this.finished;
  }

  private async flush(): Promise<void> {
    const chunk = this.buffer;
    this.buffer = '';
    await write(this.sheet, chunk);
  }
}

@Injectable()
export class StreamingSheetWriters extends SheetWriters {
  open(format: ExportFormat, stream: Writable, sheetName: string): SheetWriter {
    return format === 'XLSX' ? new XlsxSheetWriter(stream, sheetName) : new CsvSheetWriter(stream);
  }
}
