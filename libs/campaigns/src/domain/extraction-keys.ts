import { AppError } from '@outreach/core';
import { ExtractionMode } from './campaign-kinds';

/**
 * Built-in signal names: what the service itself records for every contact and call outcome.
 * A custom extraction key or an evaluation metric key may not reuse them (400
 * reserved_extraction_key / reserved_metric_key), or the analysis would overwrite a built-in
 * value. Compared case-insensitively.
 */
export const RESERVED_SIGNAL_NAMES: readonly string[] = [
  'id',
  'phone',
  'name',
  'status',
  'disposition',
  'outcome',
  'attempts',
  'attempt_number',
  'call_id',
  'lead_id',
  'contact_id',
  'campaign_id',
  'duration',
  'duration_ms',
  'answered_at',
  'ended_at',
  'sentiment',
  'summary',
  'transcript',
  'recording_url',
  'interested',
  'callback_requested',
  'callback_at',
  'do_not_call',
  'voicemail',
  'transferred',
  'language',
];

const RESERVED = new Set(RESERVED_SIGNAL_NAMES.map((n) => n.toLowerCase()));

export function isReservedSignalName(name: string): boolean {
  return RESERVED.has(name.toLowerCase());
}

/** The value types an extracted field may have (same list as an agent's extractionConfig). */
export const EXTRACTION_KEY_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'date', 'datetime'] as const;
export type ExtractionKeyType = (typeof EXTRACTION_KEY_TYPES)[number];

export const EXTRACTION_KEY_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
export const MAX_CUSTOM_EXTRACTION_KEYS = 40;

export interface ExtractionKey {
  name: string;
  type: string;
  description: string;
}

/** A key as sent by a client: `type` may be omitted (string). */
export interface ExtractionKeyInput {
  name: string;
  type?: string;
  description: string;
}

export function toExtractionKeys(inputs: readonly ExtractionKeyInput[]): ExtractionKey[] {
  return inputs.map((k) => ({ name: k.name, type: k.type ?? 'string', description: k.description }));
}

/** Refuses built-in signal names and duplicates (names are compared case-insensitively). */
export function assertCustomExtractionKeys(keys: readonly ExtractionKey[]): void {
  const reserved = keys.filter((k) => isReservedSignalName(k.name)).map((k) => k.name);
  if (reserved.length > 0) {
    throw new AppError('reserved_extraction_key', {
      message: `extraction key(s) ${reserved.join(', ')} use a built-in signal name`,
      detail: { reserved, reservedNames: RESERVED_SIGNAL_NAMES },
    });
  }
  assertUniqueNames(keys.map((k) => k.name), 'extraction key');
}

function assertUniqueNames(names: string[], what: string): void {
  const seen = new Set<string>();
  for (const name of names) {
    const folded = name.toLowerCase();
    if (seen.has(folded)) throw new AppError('invalid_body', { issues: [{ path: '', message: `duplicate ${what} ${name}` }] });
    seen.add(folded);
  }
}

/**
 * The keys the analysis extracts for a campaign: APPEND = the type's keys then the custom keys
 * (a custom key replaces a type key of the same name, in place); REPLACE = the custom keys only.
 */
export function effectiveExtractionKeys(
  typeKeys: readonly ExtractionKey[],
  customKeys: readonly ExtractionKey[],
  mode: ExtractionMode,
): ExtractionKey[] {
  if (mode === 'REPLACE') return customKeys.map((k) => ({ ...k }));
  const custom = new Map(customKeys.map((k) => [k.name.toLowerCase(), k]));
  const merged = typeKeys.map((k) => ({ ...(custom.get(k.name.toLowerCase()) ?? k) }));
  const fromType = new Set(typeKeys.map((k) => k.name.toLowerCase()));
  for (const k of customKeys) if (!fromType.has(k.name.toLowerCase())) merged.push({ ...k });
  return merged;
}

/** An evaluation metric: a judgement the analysis makes about each conversation. */
export interface EvaluationMetric {
  key: string;
  label: string;
  allowedValues: string[];
  prompt: string;
  builtin: boolean;
}

/**
 * Metric keys may not use built-in signal names (400 reserved_metric_key) nor the name of an
 * extracted field (400 metric_key_collision), since both land in the same result object.
 */
export function assertEvaluationMetrics(metrics: readonly EvaluationMetric[], extraction: readonly ExtractionKey[]): void {
  const reserved = metrics.filter((m) => isReservedSignalName(m.key)).map((m) => m.key);
  if (reserved.length > 0) {
    throw new AppError('reserved_metric_key', {
      message: `evaluation metric key(s) ${reserved.join(', ')} use a built-in signal name`,
      detail: { reserved, reservedNames: RESERVED_SIGNAL_NAMES },
    });
  }
  assertUniqueNames(metrics.map((m) => m.key), 'evaluation metric key');
  assertNoCollision(metrics, extraction);
}

export function assertNoCollision(metrics: readonly EvaluationMetric[], extraction: readonly ExtractionKey[]): void {
  const fields = new Set(extraction.map((k) => k.name.toLowerCase()));
  const collisions = metrics.filter((m) => fields.has(m.key.toLowerCase())).map((m) => m.key);
  if (collisions.length > 0) {
    throw new AppError('metric_key_collision', {
      message: `evaluation metric key(s) ${collisions.join(', ')} collide with extraction field names`,
      detail: { collisions },
    });
  }
}
