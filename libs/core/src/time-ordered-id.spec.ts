import { isUuid } from './outbox';
import { timeOrderedUuid } from './time-ordered-id';

/** decisions.md 47.20: version-7 UUIDs for rows written at a high rate (messages, ledger entries). */
describe('timeOrderedUuid', () => {
  it('is a UUID of version 7, variant 10, whose first 48 bits are the time in milliseconds', () => {
    const at = Date.UTC(2026, 11, 7, 17, 30, 0, 123);
    const id = timeOrderedUuid(at);
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts by time across milliseconds (as text and as Postgres orders uuids: byte by byte), and never repeats', () => {
    const ids = Array.from({ length: 2_000 }, (_, i) => timeOrderedUuid(1_800_000_000_000 + Math.floor(i / 10)));
    expect(new Set(ids).size).toBe(ids.length);
    const byTime = ids.map((id, i) => ({ id, ms: Math.floor(i / 10) }));
    const sorted = [...byTime].sort((a, b) => (a.id < b.id ? -1 : 1));
    for (let i = 1; i < sorted.length; i++) expect(sorted[i].ms).toBeGreaterThanOrEqual(sorted[i - 1].ms);
  });

  it('draws fresh random bits for every id, across refills of its pool of random bytes', () => {
    const at = 1_800_000_000_000;
    const tails = Array.from({ length: 1_000 }, () => timeOrderedUuid(at).slice(14));
    expect(new Set(tails).size).toBe(tails.length);
  });

  it('defaults to the current time', () => {
    const before = Date.now();
    const ms = parseInt(timeOrderedUuid().replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now());
  });
});
