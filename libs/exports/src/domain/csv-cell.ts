import type { CellValue } from './export-columns';

/** First characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): text that a spreadsheet would read as a formula gets a leading `'`
 * (so `=HYPERLINK(…)` stays text, and so does a phone number `+1415…`); a cell with a comma, quote
 * or line break is quoted, quotes doubled. Numbers are written as they are (a negative number is
 * data, not a formula).
 */
export function csvCell(value: CellValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, CRLF-terminated. */
export function csvLine(values: readonly CellValue[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += i === 0 ? csvCell(values[i]) : `,${csvCell(values[i])}`;
  return `${line}\r\n`;
}
