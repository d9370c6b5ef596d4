import { randomFillSync } from 'node:crypto';

const bytes = Buffer.alloc(16);

/**
 * A UUID of version 7 (RFC 9562): the first 48 bits are the Unix time in milliseconds, the rest
 * random (74 bits). Ids made one after the other sort by time, so rows keyed by them go to the
 * right-hand edge of their primary key's B-tree instead of a random leaf page each: the pages a
 * busy table's inserts touch stay few and in memory (decisions.md 47.20). For ids nobody may
 * guess the creation time of, use `randomUUID`.
 */
export function timeOrderedUuid(at: number = Date.now()): string {
  randomFillSync(bytes);
  bytes.writeUIntBE(at, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
