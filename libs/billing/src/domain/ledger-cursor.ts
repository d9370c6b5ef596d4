import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@outreach/core';
import { LEDGER_PERIODS, LedgerPeriod, LedgerRange } from './ledger-period';

/**
 * Where a ledger page ends, and what it was a page of. The position is the keyset
 * (created_at, id) of the last entry returned, with created_at at microsecond precision; the
 * range is the one resolved for the first page, so relative periods ("today") stay put while a
 * client pages.
 */
export interface LedgerCursor {
  createdAt: string;
  id: string;
  period: LedgerPeriod;
  kind: 'credit' | 'debit' | null;
  range: LedgerRange;
}

const MAX_CURSOR_LENGTH = 1024;
const MICRO_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3,6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const invalid = () => new AppError('invalid_cursor');

function signature(key: Buffer, workspaceId: string, payload: string): Buffer {
  return createHmac('sha256', key).update(`${workspaceId}.${payload}`).digest();
}

/**
 * Opaque to clients: base64url(JSON) + "." + base64url(HMAC-SHA256). The MAC covers the
 * workspace, so a cursor is only valid for the workspace that received it.
 */
export function encodeLedgerCursor(cursor: LedgerCursor, key: Buffer, workspaceId: string): string {
  const payload = Buffer.from(
    JSON.stringify({ t: cursor.createdAt, i: cursor.id, p: cursor.period, k: cursor.kind, a: cursor.range.from, b: cursor.range.to }),
  ).toString('base64url');
  return `${payload}.${signature(key, workspaceId, payload).toString('base64url')}`;
}

/** The cursor a client sent back, or 400 invalid_cursor when malformed or tampered with. */
export function decodeLedgerCursor(token: string, key: Buffer, workspaceId: string): LedgerCursor {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_CURSOR_LENGTH) throw invalid();
  const [payload, mac, ...rest] = token.split('.');
  if (!payload || !mac || rest.length > 0) throw invalid();
  // The MAC's text is compared, not the bytes it decodes to: its last character carries unused
  // bits, so other spellings decode to the same bytes, and only the one we wrote is ours.
  const expected = Buffer.from(signature(key, workspaceId, payload).toString('base64url'), 'latin1');
  const given = Buffer.from(mac, 'latin1');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const o = raw as Record<string, unknown>;
  const instant = (v: unknown) => v === null || (typeof v === 'string' && MICRO_ISO.test(v));
  if (
    typeof o !== 'object' || o === null ||
    typeof o.t !== 'string' || !MICRO_ISO.test(o.t) ||
    typeof o.i !== 'string' || !UUID.test(o.i) ||
    !(LEDGER_PERIODS as readonly unknown[]).includes(o.p) ||
    !(o.k === null || o.k === 'credit' || o.k === 'debit') ||
    !instant(o.a) || !instant(o.b)
  ) {
    throw invalid();
  }
  return {
    createdAt: o.t,
    id: o.i,
    period: o.p as LedgerPeriod,
    kind: o.k as LedgerCursor['kind'],
    range: { from: o.a as string | null, to: o.b as string | null },
  };
}
