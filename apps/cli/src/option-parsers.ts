import { isUuid } from '@outreach/platform';
import { ALL_SCOPES, isScope } from '@outreach/core';
import { UsageError } from './cli-errors';

/*
 * Shape checks for option values, used as nest-commander @Option parsers. They only check what a
 * command line can get wrong (a number that is not one, a date that is not ISO, a value outside
 * an enum); the bounds and rules stay in the domain, which answers with an AppError.
 */

/** An id: every public id is a UUID. */
export function parseId(flag: string, raw: string): string {
  if (!isUuid(raw)) throw new UsageError(`${flag} must be a UUID, got ${JSON.stringify(raw)}`);
  return raw.toLowerCase();
}

/** A whole number written in decimal digits (an optional minus sign; no decimals, no exponent). */
export function parseInteger(flag: string, raw: string): number {
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value)) {
    throw new UsageError(`${flag} must be a whole number, got ${JSON.stringify(raw)}`);
  }
  return value;
}

export function parseOneOf<T extends string>(flag: string, raw: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return raw as T;
}

export function parseBoolean(flag: string, raw: string): boolean {
  return parseOneOf(flag, raw, ['true', 'false'] as const) === 'true';
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO-8601 date (midnight UTC) or date-time with an explicit offset (Z or ±hh:mm). */
export function parseIsoDate(flag: string, raw: string): Date {
  const invalid = () =>
    new UsageError(`${flag} must be an ISO-8601 date or date-time with offset (e.g. 2026-12-31T23:59:00Z), got ${JSON.stringify(raw)}`);
  const datePart = ISO_DATE.test(raw) ? raw : ISO_DATE_TIME.exec(raw)?.[1];
  if (!datePart) throw invalid();
  const value = new Date(raw);
  // Date rolls 2026-02-30 over to March: the calendar date must survive the round trip.
  const calendar = new Date(`${datePart}T00:00:00Z`);
  if (Number.isNaN(value.getTime()) || Number.isNaN(calendar.getTime()) || calendar.toISOString().slice(0, 10) !== datePart) {
    throw invalid();
  }
  return value;
}

/**
 * A setting that `none` clears. Boxed because commander replaces a parser's null with ''.
 */
export interface Clearable<T> {
  value: T | null;
}

/** `none` clears a setting; anything else goes through `parse`. */
export function parseOrNone<T>(raw: string, parse: (raw: string) => T): Clearable<T> {
  return { value: raw === 'none' ? null : parse(raw) };
}

/** A comma-separated list; blanks around items and empty items are dropped. */
export function parseList(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** Scopes from the catalogue, comma-separated; `all` stands for every scope. */
export function parseScopes(flag: string, raw: string): string[] {
  const items = parseList(raw);
  if (items.length === 1 && items[0] === 'all') return [...ALL_SCOPES];
  const unknown = items.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw new UsageError(`${flag}: unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: all, ${ALL_SCOPES.join(', ')})`);
  }
  return items;
}

/**
 * Feature names, comma-separated. With `toggles`, each may carry `+` (turn on, the default) or
 * `-` (turn off).
 */
export function parseFeatures(flag: string, raw: string, known: readonly string[], options: { toggles: boolean }): string[] {
  const items = parseList(raw);
  const unknown = items.filter((item) => !known.includes(options.toggles ? item.replace(/^[+-]/, '') : item));
  if (unknown.length > 0) {
    throw new UsageError(`${flag}: unknown feature${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${known.join(', ')})`);
  }
  return items;
}
