import { createHash } from 'node:crypto';
import { AppError } from '@outreach/core';

/** Longest Idempotency-Key accepted (spec "Limits"). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
/** How long a key and its stored answer are kept; an expired key may be used again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a request may hold its key "in progress". A process that dies mid-request leaves such
 * a row behind; once this passes, a retry with the same key and request runs again.
 */
export const IDEMPOTENCY_LOCK_MS = 60 * 1000;
/** Seconds a client waits before retrying after 409 idempotency_in_progress (spec "Limits"). */
export const IDEMPOTENCY_RETRY_AFTER_SECONDS = 1;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The Idempotency-Key header, checked: missing or empty → 400 idempotency_key_required; over 200
 * characters or anything outside printable ASCII (0x20-0x7E) → 400 idempotency_key_invalid.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined || value.trim() === '') {
    throw new AppError('idempotency_key_required', { message: 'Send an Idempotency-Key header (1-200 printable ASCII characters)' });
  }
  if (value.length > IDEMPOTENCY_KEY_MAX_LENGTH || !PRINTABLE_ASCII.test(value)) {
    throw new AppError('idempotency_key_invalid', {
      message: `Idempotency-Key must be 1-${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`,
    });
  }
  return value;
}

/** JSON with object keys sorted at every level: equal requests hash equally whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

/** SHA-256 (hex) of what makes two requests "the same": method, concrete path, query and body. */
export function requestHash(input: { method: string; path: string; query: unknown; body: unknown }): string {
  return createHash('sha256')
    .update(canonicalJson({ method: input.method.toUpperCase(), path: input.path, query: input.query ?? {}, body: input.body ?? null }))
    .digest('hex');
}
