import { Injectable } from '@nestjs/common';
import { AppError, isExcelMangledPhone, normalisePhone } from '@outreach/core';
import { ContactRepository, NewContact, UploadMeta, UploadStore } from './campaigns.ports';

/** Rows read, normalised and inserted per round trip: memory stays flat whatever the file size. */
export const IMPORT_BATCH_SIZE = 2000;
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

  async importUpload(workspaceId: string, campaignId: string, upload: UploadMeta, options: ImportOptions): Promise<ImportSummary> {
    const columns = this.resolveColumns(upload, options);
    const nameIndex = upload.columns.findIndex((c, i) => i !== columns.phone && NAME_COLUMN.test(c));
    const summary: ImportSummary = { rows: 0, imported: 0, duplicates: 0, invalid: 0 };
    let after = 0;
    for (;;) {
      const rows = await this.uploads.readRows(upload.id, after, IMPORT_BATCH_SIZE);
      if (rows.length === 0) break;
      after = rows[rows.length - 1].rowNo;
      // Repeats within the batch are dropped here; across batches and against earlier imports the
      // unique (campaign, phone) index does it. Nothing grows with the file.
      const seen = new Set<string>();
      const batch: NewContact[] = [];
      const invalid: InvalidRow[] = [];
      for (const { rowNo, cells } of rows) {
        summary.rows += 1;
        const rawPhone = cells[columns.phone] ?? '';
        if (isExcelMangledPhone(rawPhone)) throw mangled(upload.columns[columns.phone], rowNo, rawPhone);
        const phone = normalisePhone(rawPhone, options.countryCode);
        if (!phone) {
          invalid.push({ row: rowNo, value: rawPhone });
          continue;
        }
        if (seen.has(phone)) {
          summary.duplicates += 1;
          continue;
        }
        seen.add(phone);
        const fields: Record<string, string> = {};
        upload.columns.forEach((column, i) => {
          if (i !== columns.phone) fields[column] = cells[i] ?? '';
        });
        batch.push({
          phone,
          altPhones: uniquePhones(columns.alt.map((i) => cells[i] ?? ''), options.countryCode, phone),
          name: nameIndex >= 0 && cells[nameIndex] ? cells[nameIndex] : null,
          fields,
        });
      }
      this.handleInvalid(invalid, options.removeInvalidRows, summary, 'row');
      const inserted = await this.contacts.insertMany(workspaceId, campaignId, batch);
      summary.imported += inserted;
      summary.duplicates += batch.length - inserted;
    }
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

  private handleInvalid(invalid: InvalidRow[], removeInvalidRows: boolean, summary: ImportSummary, unit: 'row' | 'index'): void {
    if (invalid.length === 0) return;
    if (removeInvalidRows) {
      summary.invalid += invalid.length;
      return;
    }
    throw new AppError('invalid_phone', {
      message: `${invalid.length} ${unit === 'row' ? 'row(s)' : 'contact(s)'} without a valid phone number; fix them or set removeInvalidRows`,
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
