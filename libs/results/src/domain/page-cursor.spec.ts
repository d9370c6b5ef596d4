import { AppError } from '@outreach/core';
import { decodeCursor, encodeCursor, toPage } from './page-cursor';

describe('opaque keyset cursors', () => {
  it('round-trips a position of its own list', () => {
    expect(decodeCursor('results', encodeCursor('results', '12345'))).toBe('12345');
    expect(decodeCursor('results', undefined)).toBeNull();
  });

  it.each([
    ['garbage', 'not!base64'],
    ['another list', encodeCursor('deliveries', '5')],
    ['no number', Buffer.from('results:abc').toString('base64url')],
    ['empty', ''],
    ['too long', 'a'.repeat(201)],
  ])('refuses %s → invalid_cursor', (_label, cursor) => {
    expect(() => decodeCursor('results', cursor)).toThrow(AppError);
    try {
      decodeCursor('results', cursor);
    } catch (error) {
      expect((error as AppError).code).toBe('invalid_cursor');
      expect((error as AppError).status).toBe(400);
    }
  });

  it('a page keeps `limit` rows and points after the last one', () => {
    const rows = [1, 2, 3].map((n) => ({ seq: String(n), v: n }));
    const page = toPage('results', rows, 2, (r) => r.v);
    expect(page.items).toEqual([1, 2]);
    expect(decodeCursor('results', page.nextCursor!)).toBe('2');
    expect(toPage('results', rows, 3, (r) => r.v).nextCursor).toBeNull();
  });
});
