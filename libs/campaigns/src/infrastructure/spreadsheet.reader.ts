import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { AppError } from '@outreach/core';
import { CsvError, parse } from 'csv-parse';
import { readSheet } from 'read-excel-file/node';
import { SpreadsheetReader } from '../application/campaigns.ports';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** CSV (streamed through csv-parse) and XLSX (read-excel-file); rows come out as arrays of strings. */
@Injectable()
export class CsvXlsxSpreadsheetReader extends SpreadsheetReader {
  rows(file: { buffer: Buffer; fileName: string; mimeType: string }): AsyncIterable<string[]> {
    if (isXlsx(file)) return xlsxRows(file.buffer);
    if (/\.xls$/i.test(file.fileName) || file.buffer.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))) {
      throw new AppError('invalid_csv_format', { message: 'legacy .xls files are not supported: save as CSV or XLSX' });
    }
    return csvRows(file.buffer);
  }
}

function isXlsx(file: { buffer: Buffer; fileName: string; mimeType: string }): boolean {
  return /\.xlsx$/i.test(file.fileName) || file.mimeType === XLSX_MIME || file.buffer.subarray(0, 4).equals(ZIP_MAGIC);
}

/** The delimiter of the header line: the most frequent of , ; tab | outside quotes. */
function detectDelimiter(buffer: Buffer): string {
  const head = buffer.subarray(0, 64 * 1024).toString('utf8');
  const line = head.split(/\r?\n/, 1)[0] ?? '';
  const unquoted = line.replace(/"[^"]*"/g, '');
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', ';', '\t', '|']) {
    const count = unquoted.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

async function* csvRows(buffer: Buffer): AsyncIterable<string[]> {
  if (buffer.includes(0)) {
    throw new AppError('invalid_csv_format', { message: 'the file holds NUL bytes: it is not a text CSV (save as CSV or XLSX)' });
  }
  // Fed in slices: given the whole file as one chunk, the parser would turn every row into an array
  // before the first one is read (a 1M-row file held ~1 GB); sliced, backpressure keeps one slice's rows.
  const parser = Readable.from(slices(buffer)).pipe(
    parse({
      bom: true,
      delimiter: detectDelimiter(buffer),
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }),
  );
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield record;
  } catch (error) {
    if (error instanceof CsvError) {
      throw new AppError('invalid_csv_format', { message: `the CSV could not be parsed: ${error.message}` });
    }
    throw error;
  }
}

/** The file in 64 KiB views (no copy); the parser joins a row or a character split between two. */
function* slices(buffer: Buffer): Iterable<Buffer> {
  for (let offset = 0; offset < buffer.length; offset += CSV_SLICE_BYTES) yield buffer.subarray(offset, offset + CSV_SLICE_BYTES);
}

const CSV_SLICE_BYTES = 64 * 1024;

async function* xlsxRows(buffer: Buffer): AsyncIterable<string[]> {
  let data: unknown[][];
  try {
    data = (await readSheet(buffer)) as unknown[][];
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('invalid_csv_format', { message: 'the file is not a readable XLSX workbook' });
  }
  for (const row of data) {
    const cells = row.map(cellText);
    if (cells.every((c) => c === '')) continue;
    yield cells;
  }
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number') {
    // Whole numbers (phone numbers stored as numbers) keep every digit: no exponent, no ".0".
    return Number.isInteger(value) && Math.abs(value) < 1e21 ? value.toFixed(0) : String(value);
  }
  return String(value).trim();
}
