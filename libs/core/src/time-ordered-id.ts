import { randomFillSync } from 'node:crypto';

/** Random bytes for this many ids are drawn at once: one call into the CSPRNG per 256 ids, not one per id (it was 3 % of a busy worker's CPU). */
const IDS_PER_DRAW = 256;
const pool = Buffer.alloc(16 * IDS_PER_DRAW);
let next = pool.length;
const bytes = Buffer.alloc(16);

/**
 * A UUID of version 7 (RFC 9562): the first 48 bits are the Unix time in milliseconds, the rest
 * random (74 bits). Ids made one after the other sort by time, so rows keyed by them go to the
 * right-hand edge of their primary key's B-tree instead of a random leaf page each: the pages a
 * busy table's inserts touch stay few and in memory (decisions.md 47.20). For ids nobody may
 * guess the creation time of, use `randomUUID`.
 */
export function timeOrderedUuid(at: number = Date.now()): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  pool.copy(bytes, 0, next, next + 16);
  next += 16;
  bytes.writeUIntBE(at, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
