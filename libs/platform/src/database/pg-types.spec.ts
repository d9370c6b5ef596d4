import { types as pgTypes } from 'pg';
import { parseTimestamptz, SERVICE_PG_TYPES } from './pg-types';

const pgParse = pgTypes.getTypeParser(1184, 'text') as (text: string) => unknown;

/** A deterministic stream of pseudo-random integers (no Math.random: failures must replay). */
function lcg(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648);
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('parseTimestamptz', () => {
  it("gives the same Date as pg's parser for Postgres' output in every offset form and fraction length", () => {
    const next = lcg(7);
    const offsets = ['+00', '-03', '+05:30', '-09:30', '+14', '-12', '+05:53:28', '-00:25:21'];
    for (let i = 0; i < 20_000; i++) {
      const fraction = i % 7 === 0 ? '' : `.${pad(next() % 1_000_000, 6).slice(0, 1 + (i % 6))}`;
      const text =
        `${1000 + (next() % 9000)}-${pad(1 + (next() % 12), 2)}-${pad(1 + (next() % 28), 2)} ` +
        `${pad(next() % 24, 2)}:${pad(next() % 60, 2)}:${pad(next() % 60, 2)}${fraction}${offsets[i % offsets.length]}`;
      const ours = parseTimestamptz(text) as Date;
      expect(ours).toBeInstanceOf(Date);
      if (ours.getTime() !== (pgParse(text) as Date).getTime()) throw new Error(`${text}: ${ours.toISOString()} vs ${(pgParse(text) as Date).toISOString()}`);
    }
  });

  it("hands what it does not read itself to pg's parser: infinity, BC, short and long years, odd forms", () => {
    for (const text of ['infinity', '-infinity', '0044-03-15 12:00:00+00 BC', '0099-01-01 00:00:00+00', '12345-01-01 00:00:00+00', '2026-11-29 13:22:01.+00', '2026-11-29 13:22:01Z', '2026-11-29T13:22:01+00']) {
      const ours = parseTimestamptz(text);
      const theirs = pgParse(text);
      if (theirs instanceof Date) expect((ours as Date).getTime()).toEqual(theirs.getTime());
      else expect(ours).toEqual(theirs);
    }
  });

  it('truncates the fraction to milliseconds like pg (no rounding up)', () => {
    expect((parseTimestamptz('2026-11-29 13:22:01.999999+00') as Date).toISOString()).toBe('2026-11-29T13:22:01.999Z');
    expect((parseTimestamptz('2026-11-29 13:22:01.5+00') as Date).toISOString()).toBe('2026-11-29T13:22:01.500Z');
    expect((parseTimestamptz('2026-11-29 23:30:00-01:30') as Date).toISOString()).toBe('2026-11-30T01:00:00.000Z');
  });

  it('is what the service clients use for timestamptz, and pg\'s own parser for every other type', () => {
    expect(SERVICE_PG_TYPES.getTypeParser(1184, 'text')).toBe(parseTimestamptz);
    expect(SERVICE_PG_TYPES.getTypeParser(1184)).toBe(parseTimestamptz);
    for (const oid of [16, 20, 23, 114, 1082, 1114, 3802]) expect(SERVICE_PG_TYPES.getTypeParser(oid, 'text')).toBe(pgTypes.getTypeParser(oid, 'text'));
  });
});
