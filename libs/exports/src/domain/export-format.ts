import { AppError } from '@outreach/core';

export const EXPORT_FORMATS = ['CSV', 'XLSX'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A worksheet holds 1,048,576 rows; one is the header: the data rows an XLSX export may hold. */
export const XLSX_MAX_DATA_ROWS = 1_048_575;

/**
 * Refuses an XLSX export whose row count (counted before any work starts) does not fit one sheet.
 * `limit` is the sheet's, except where a test narrows it through the RowLimits port.
 */
export function assertFitsFormat(format: ExportFormat, rowCount: number, limit: number = XLSX_MAX_DATA_ROWS): void {
  if (format === 'XLSX' && rowCount > limit) {
    throw new AppError('excel_row_limit_exceeded', {
      message: `${rowCount} rows do not fit one XLSX sheet (at most ${limit} data rows): export CSV or narrow the period or filter`,
      detail: { rowCount, limit },
    });
  }
}

export const EXPORT_MEDIA_TYPES: Readonly<Record<ExportFormat, string>> = {
  CSV: 'text/csv; charset=utf-8',
  XLSX: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export const EXPORT_EXTENSIONS: Readonly<Record<ExportFormat, string>> = { CSV: 'csv', XLSX: 'xlsx' };
