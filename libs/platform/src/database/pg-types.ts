import { types as pgTypes } from 'pg';

const TIMESTAMPTZ_OID = 1184;

type TextParser = (text: string) => unknown;
const pgParseTimestamptz = pgTypes.getTypeParser(TIMESTAMPTZ_OID, 'text') as TextParser;

/** The decimal value of `text[from, to)`, or -1 when a character is not a digit. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * Postgres' text form of a timestamptz (`2026-11-29 13:22:01.123456+00`, offsets `+05:30`,
 * `-03`, `+05:30:15`) → Date, by reading characters instead of pg's three regular expressions.
 * Gives the same Date as pg's parser (postgres-date: milliseconds truncated from the fraction);
 * anything else — BC dates, ±infinity, years outside 1000–9999 — goes to pg's parser.
 * decisions.md 46.1: every timestamp the service reads goes through here; a 1M-row export parses
 * three per row.
 */
export function parseTimestamptz(text: string): unknown {
  const n = text.length;
  if (n < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) {
    return pgParseTimestamptz(text);
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  const hour = digits(text, 11, 13);
  const minute = digits(text, 14, 16);
  const second = digits(text, 17, 19);
  if (year < 1000 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return pgParseTimestamptz(text);
  let i = 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    // The fraction's first three digits are the milliseconds; the rest is truncated.
    i += 1;
    let scale = 100;
    while (i < n) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      ms += d * scale;
      scale /= 10;
      i += 1;
    }
    if (scale === 100) return pgParseTimestamptz(text); // a dot without digits
    ms = Math.floor(ms);
  }
  const sign = text.charCodeAt(i);
  if (sign !== 43 && sign !== 45) return pgParseTimestamptz(text);
  // Offset: ±HH, ±HH:MM or ±HH:MM:SS, and nothing after it.
  const rest = n - i - 1;
  if (rest !== 2 && rest !== 5 && rest !== 8) return pgParseTimestamptz(text);
  const oh = digits(text, i + 1, i + 3);
  const om = rest >= 5 && text.charCodeAt(i + 3) === 58 ? digits(text, i + 4, i + 6) : rest >= 5 ? -1 : 0;
  const os = rest === 8 && text.charCodeAt(i + 6) === 58 ? digits(text, i + 7, i + 9) : rest === 8 ? -1 : 0;
  if (oh < 0 || om < 0 || os < 0) return pgParseTimestamptz(text);
  const offsetMs = (sign === 45 ? -1 : 1) * ((oh * 60 + om) * 60 + os) * 1000;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMs);
}

/**
 * The type parsers of the service's pg clients (data-source-options.ts passes them as the
 * client's `types`): pg's own, except the faster timestamptz parser above. Scoped to our clients,
 * not set globally on the pg module.
 */
export const SERVICE_PG_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): unknown {
    if (oid === TIMESTAMPTZ_OID && (format === undefined || format === 'text')) return parseTimestamptz;
    return format === undefined ? pgTypes.getTypeParser(oid) : pgTypes.getTypeParser(oid, format as 'text');
  },
};
