import { createHash } from 'node:crypto';
import { AppError } from '@outreach/core';

/** A value of a lead's `fields`: scalars only, so they can fill {{variables}} in a prompt. */
export type LeadFieldValue = string | number | boolean | null;

/** A lead as pushed (phone already normalised to E.164). */
export interface Lead {
  phone: string;
  name: string | null;
  fields: Record<string, LeadFieldValue>;
}

export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The lead push's idempotency key, read from the body: missing → idempotency_key_required (the
 * lead routes answer it with 422); not 1-200 printable ASCII characters → idempotency_key_invalid.
 */
export function readIdempotencyKey(value: unknown): string {
  if (value === undefined || value === null) {
    throw new AppError('idempotency_key_required', {
      message: 'Send idempotencyKey in the body: the same key and body always answer the same lead',
    });
  }
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_IDEMPOTENCY_KEY_LENGTH || !PRINTABLE_ASCII.test(value)) {
    throw new AppError('idempotency_key_invalid', {
      message: `idempotencyKey must be 1-${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`,
    });
  }
  return value;
}

/**
 * What "the same body" means for a key: the normalised phone, the name and the fields, with
 * members in a canonical order (so {"a":1,"b":2} and {"b":2,"a":1} are the same request).
 */
export function leadFingerprint(lead: Lead): string {
  return createHash('sha256').update(canonicalJson({ phone: lead.phone, name: lead.name, fields: lead.fields })).digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** Contact fields are text (like CSV columns): numbers and booleans as written, null as ''. */
export function contactFields(fields: Record<string, LeadFieldValue>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = v === null ? '' : String(v);
  return out;
}
