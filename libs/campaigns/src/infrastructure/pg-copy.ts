import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TransactionHost } from '@outreach/platform';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * `COPY … FROM STDIN` on the current transaction's connection (pg-copy-streams): `lines` are
 * COPY text-format lines (each ending in "\n"), written with backpressure, so memory holds one
 * chunk whatever the size. An error thrown by `lines` aborts the COPY (CopyFail) and rejects with
 * that error; the transaction then rolls back as usual. Returns the rows copied.
 */
export async function copyIntoTable(tx: TransactionHost, sql: string, lines: Iterable<string> | AsyncIterable<string>): Promise<number> {
  if (!tx.inTransaction) throw new Error('COPY FROM STDIN runs inside a transaction (UnitOfWork.run)');
  const runner = tx.manager.queryRunner as unknown as { connect(): Promise<PoolClient> } | undefined;
  if (!runner) throw new Error('the transaction has no query runner');
  const client = await runner.connect();
  const stream = client.query(copyFrom(sql));
  await pipeline(Readable.from(chunked(lines)), stream);
  return stream.rowCount;
}

/** Joins lines into ~64 KiB chunks (one CopyData message each rather than one per row). */
async function* chunked(lines: Iterable<string> | AsyncIterable<string>): AsyncIterable<string> {
  let buffer = '';
  for await (const line of lines) {
    buffer += line;
    if (buffer.length >= 64 * 1024) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer.length > 0) yield buffer;
}

/** One value in COPY text format: NULL as \N; backslash, tab, newline and carriage return escaped. */
export function copyText(value: string | null): string {
  if (value === null) return '\\N';
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]) : value;
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A text[] value as a Postgres array literal (every element quoted), ready for copyText. */
export function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
