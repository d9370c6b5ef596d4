import { AppError } from '@outreach/core';

/**
 * Opaque keyset cursors: base64url of `<list>:<position>`, where the position is the row's
 * insertion sequence. A cursor of another list, or anything malformed → 400 invalid_cursor.
 */
export type CursorList = 'results' | 'deliveries' | 'api-logs';

export function encodeCursor(list: CursorList, position: string): string {
  return Buffer.from(`${list}:${position}`, 'utf8').toString('base64url');
}

export function decodeCursor(list: CursorList, cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const invalid = () => new AppError('invalid_cursor', { message: 'Cursor invalid; use nextCursor from the previous page of this list' });
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw invalid();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^([a-z-]+):(\d{1,18})$/.exec(text);
  if (!match || match[1] !== list) throw invalid();
  return match[2];
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Cuts a page fetched with limit + 1 rows: the extra row only says there is more. */
export function toPage<R extends { seq: string }, T>(list: CursorList, rows: R[], limit: number, map: (r: R) => T): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  return { items: kept.map(map), nextCursor: more ? encodeCursor(list, kept[kept.length - 1].seq) : null };
}
