import { AppError } from '@outreach/core';
import { decodeLedgerCursor, encodeLedgerCursor, LedgerCursor } from './ledger-cursor';

const key = Buffer.alloc(32, 7);
const ws = '11111111-1111-4111-8111-111111111111';
const cursor: LedgerCursor = {
  createdAt: '2026-03-01T10:00:00.123456Z',
  id: '22222222-2222-4222-8222-222222222222',
  period: 'custom',
  kind: 'debit',
  range: { from: '2026-02-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' },
};

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.code : 'not-an-app-error';
  }
  return undefined;
};

describe('ledger cursor', () => {
  it('round-trips and is opaque (base64url, no raw ids or dates)', () => {
    const token = encodeLedgerCursor(cursor, key, ws);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(token).not.toContain(cursor.id);
    expect(decodeLedgerCursor(token, key, ws)).toEqual(cursor);
  });

  it('400 invalid_cursor when tampered with, truncated, garbage, or from another workspace or key', () => {
    const token = encodeLedgerCursor(cursor, key, ws);
    const [payload, mac] = token.split('.');
    // The MAC's last character spelled another way that decodes to the same bytes (its unused low bit flipped).
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${mac.slice(0, -1)}${alphabet[alphabet.indexOf(mac.at(-1)!) ^ 1]}`;
    expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(mac, 'base64url'));
    const forged = Buffer.from(
      JSON.stringify({ t: cursor.createdAt, i: cursor.id, p: 'all_time', k: null, a: null, b: null }),
    ).toString('base64url');
    for (const bad of [
      `${forged}.${mac}`,
      `${payload}.${mac.slice(0, -2)}`,
      `${payload}.${respelled}`,
      `${payload}x.${mac}`,
      payload,
      'not-a-cursor',
      '',
      'a.b.c',
      'x'.repeat(5000),
    ]) {
      expect(codeOf(() => decodeLedgerCursor(bad, key, ws))).toBe('invalid_cursor');
    }
    expect(codeOf(() => decodeLedgerCursor(token, key, '33333333-3333-4333-8333-333333333333'))).toBe('invalid_cursor');
    expect(codeOf(() => decodeLedgerCursor(token, Buffer.alloc(32, 8), ws))).toBe('invalid_cursor');
  });

  it('refuses a well-signed payload of the wrong shape', () => {
    const { createHmac } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    const payload = Buffer.from(JSON.stringify({ t: 'yesterday', i: 'x', p: 'today', k: null, a: null, b: null })).toString('base64url');
    const mac = createHmac('sha256', key).update(`${ws}.${payload}`).digest('base64url');
    expect(codeOf(() => decodeLedgerCursor(`${payload}.${mac}`, key, ws))).toBe('invalid_cursor');
  });
});
