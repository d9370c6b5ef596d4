import { Injectable } from '@nestjs/common';
import { AppError, isExcelMangledPhone, normalisePhone } from '@outreach/core';
import { ContactRepository, NewContact, StagedContact, UploadMeta, UploadStore } from './campaigns.ports';

/** JSON contacts inserted per round trip. */
export const IMPORT_BATCH_SIZE = 2000;
/** Upload rows read, normalised, staged and inserted per page: memory stays flat, and each statement stays far inside the API's statement timeout (DB_QUERY_TIMEOUT_MS, 700 ms by default). */
export const UPLOAD_PAGE_SIZE = 2000;
const MAX_REPORTED_INVALID = 20;

export interface ImportSummary {
  /** Data rows (or JSON items) read. */
  rows: number;
  /** New contacts. */
  imported: number;
  /** Rows whose phone the campaign had already (or that repeat an earlier row). */
  duplicates: number;
  /** Rows without a valid phone, dropped because removeInvalidRows is on. */
  invalid: number;
}

export interface ImportOptions {
  phoneColumn: string;
  altPhoneColumns: string[];
  countryCode: string | null;
  removeInvalidRows: boolean;
}

/** A contact as sent in JSON (POST /campaigns/{id}/contacts). */
export interface ContactInput {
  phone: string;
  name?: string;
  altPhones?: string[];
  fields?: Record<string, string>;
}

interface InvalidRow {
  row: number;
  value: string;
}

const NAME_COLUMN = /^(full[ _-]?)?name$/i;

/**
 * Turns uploaded rows or JSON contacts into campaign contacts: phones to E.164 (countryCode as the
 * default calling code), duplicates within the campaign dropped, other columns kept as fields
 * (usable as {{variables}}). Runs inside the caller's transaction, so a refused import adds nothing.
 */
@Injectable()
export class ContactImporter {
  constructor(
    private readonly uploads: UploadStore,
    private readonly contacts: ContactRepository,
  ) {}

  /** Where the phone columns are; 400 invalid_body when one is not a column of the upload. */
  resolveColumns(upload: UploadMeta, options: Pick<ImportOptions, 'phoneColumn' | 'altPhoneColumns'>): { phone: number; alt: number[] } {
    const find = (name: string, path: string): number => {
      let index = upload.columns.indexOf(name);
      if (index < 0) index = upload.columns.findIndex((c) => c.toLowerCase() === name.toLowerCase());
      if (index < 0) {
        throw new AppError('invalid_body', {
          issues: [{ path, message: `${JSON.stringify(name)} is not a column of the upload (${upload.columns.join(', ')})` }],
        });
      }
      return index;
    };
    return {
      phone: find(options.phoneColumn, 'phoneColumn'),
      alt: options.altPhoneColumns.map((c, i) => find(c, `altPhoneColumns.${i}`)),
    };
  }

  /**
   * Only the phone cells travel to the service (libphonenumber-js stays the one reading of a
   * number); each page's valid rows are staged with `COPY … FROM STDIN` and one INSERT … SELECT
   * takes the first row of each phone, its name and its fields straight from the upload's rows
   * (decisions.md 43). Runs inside the caller's transaction: a refused import adds nothing.
   */
  async importUpload(workspaceId: string, campaignId: string, upload: UploadMeta, options: ImportOptions): Promise<ImportSummary> {
    const columns = this.resolveColumns(upload, options);
    const nameIndex = upload.columns.findIndex((c, i) => i !== columns.phone && NAME_COLUMN.test(c));
    const summary: ImportSummary = { rows: 0, imported: 0, duplicates: 0, invalid: 0 };
    const invalid: InvalidRow[] = [];
    let invalidCount = 0;
    let after = 0;
    const source = { uploadId: upload.id, columns: upload.columns, phone: columns.phone, name: nameIndex };
    for (;;) {
      const rows = await this.uploads.readRows(upload.id, after, UPLOAD_PAGE_SIZE, [columns.phone, ...columns.alt]);
      if (rows.length === 0) break;
      after = rows[rows.length - 1].rowNo;
      const batch: StagedContact[] = [];
      for (const { rowNo, cells } of rows) {
        summary.rows += 1;
        const rawPhone = cells[0] ?? '';
        if (isExcelMangledPhone(rawPhone)) throw mangled(upload.columns[columns.phone], rowNo, rawPhone);
        const phone = normalisePhone(rawPhone, options.countryCode);
        if (!phone) {
          invalidCount += 1;
          if (invalid.length < MAX_REPORTED_INVALID) invalid.push({ row: rowNo, value: rawPhone });
          continue;
        }
        batch.push({ rowNo, phone, altPhones: uniquePhones(cells.slice(1).map((c) => c ?? ''), options.countryCode, phone) });
      }
      // Once a row is invalid and invalid rows refuse the import, the rest is only read to count them.
      if (batch.length === 0 || (invalidCount > 0 && !options.removeInvalidRows)) continue;
      // One page per statement (each within the statement timeout, however long the file): repeats
      // within the page go by DISTINCT ON, across pages and against earlier contacts by the unique
      // (campaign, phone) index; pages go in row order, so the first row of a phone wins.
      await this.contacts.stage(batch);
      const inserted = await this.contacts.insertStaged(workspaceId, campaignId, source);
      summary.imported += inserted;
      summary.duplicates += batch.length - inserted;
    }
    this.handleInvalid(invalid, options.removeInvalidRows, summary, 'row', invalidCount);
    return summary;
  }

  async importContacts(
    workspaceId: string,
    campaignId: string,
    inputs: readonly ContactInput[],
    options: Pick<ImportOptions, 'countryCode' | 'removeInvalidRows'>,
  ): Promise<ImportSummary> {
    const summary: ImportSummary = { rows: inputs.length, imported: 0, duplicates: 0, invalid: 0 };
    const invalid: InvalidRow[] = [];
    const seen = new Set<string>();
    const batch: NewContact[] = [];
    inputs.forEach((input, index) => {
      if (isExcelMangledPhone(input.phone)) throw mangled('phone', index, input.phone);
      const phone = normalisePhone(input.phone, options.countryCode);
      if (!phone) {
        invalid.push({ row: index, value: input.phone });
        return;
      }
      if (seen.has(phone)) {
        summary.duplicates += 1;
        return;
      }
      seen.add(phone);
      batch.push({
        phone,
        altPhones: uniquePhones(input.altPhones ?? [], options.countryCode, phone),
        name: input.name ?? null,
        fields: input.fields ?? {},
      });
    });
    this.handleInvalid(invalid, options.removeInvalidRows, summary, 'index');
    for (let i = 0; i < batch.length; i += IMPORT_BATCH_SIZE) {
      const chunk = batch.slice(i, i + IMPORT_BATCH_SIZE);
      const inserted = await this.contacts.insertMany(workspaceId, campaignId, chunk);
      summary.imported += inserted;
      summary.duplicates += chunk.length - inserted;
    }
    return summary;
  }

  /** `count`: how many are invalid when `invalid` holds only the first of them. */
  private handleInvalid(invalid: InvalidRow[], removeInvalidRows: boolean, summary: ImportSummary, unit: 'row' | 'index', count = invalid.length): void {
    if (count === 0) return;
    if (removeInvalidRows) {
      summary.invalid += count;
      return;
    }
    throw new AppError('invalid_phone', {
      message: `${count} ${unit === 'row' ? 'row(s)' : 'contact(s)'} without a valid phone number; fix them or set removeInvalidRows`,
      detail: { invalid: invalid.slice(0, MAX_REPORTED_INVALID).map((r) => ({ [unit]: r.row, phone: r.value })) },
    });
  }
}

function uniquePhones(raws: readonly string[], countryCode: string | null, primary: string): string[] {
  const out: string[] = [];
  for (const raw of raws) {
    const phone = normalisePhone(raw, countryCode);
    if (phone && phone !== primary && !out.includes(phone)) out.push(phone);
  }
  return out;
}

function mangled(column: string, row: number, value: string): AppError {
  return new AppError('excel_mangled_phone', {
    message: `${column} holds ${value} (scientific notation): Excel dropped the number's digits. Format the column as text and export again`,
    detail: { column, row, value },
  });
}
