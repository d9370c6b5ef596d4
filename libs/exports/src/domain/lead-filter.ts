import type { ExportLead } from './export-lead';

/** The contract's preset lead segments (docs/decisions.md 26.4), in the order GET …/lead-segments lists them. */
export const LEAD_SEGMENTS = ['all', 'pending', 'completed', 'failed', 'not_reached', 'interested', 'not_interested', 'opted_out', 'do_not_call'] as const;
export type LeadSegment = (typeof LEAD_SEGMENTS)[number];

/** Outcomes of an attempt in which nobody was reached. */
export const NOT_REACHED_OUTCOMES = ['no_answer', 'busy', 'voicemail', 'carrier_failure'] as const;

/** Analysis signals a segment reads from the last call (evaluation first, then extraction). */
export type AnalysisSignal = 'interested' | 'not_interested' | 'opted_out';

/** A value of the last call's analysis: `key` equal (as text) to one of `values`. */
export interface ValueMatch {
  key: string;
  values: string[];
}

/**
 * Which leads a count or an export takes. Contact members (statuses, outcomes) are answered by the
 * campaigns module's SQL; analysis members (extraction, evaluation, signal) are checked here, on
 * the last campaign call of each contact. Every member narrows (AND); values within one are OR.
 */
export interface LeadFilter {
  statuses?: string[];
  outcomes?: string[];
  extraction?: ValueMatch[];
  evaluation?: ValueMatch[];
  signal?: AnalysisSignal;
}

/** The filter of a preset segment (decisions.md 26.4). */
export function segmentFilter(segment: LeadSegment): LeadFilter {
  switch (segment) {
    case 'all':
      return {};
    case 'pending':
      return { statuses: ['PENDING', 'IN_PROGRESS', 'RETRY_SCHEDULED'] };
    case 'completed':
      return { statuses: ['COMPLETED'] };
    case 'failed':
      return { statuses: ['FAILED'] };
    case 'not_reached':
      return { outcomes: [...NOT_REACHED_OUTCOMES] };
    case 'interested':
      return { signal: 'interested' };
    case 'not_interested':
      return { signal: 'not_interested' };
    case 'opted_out':
      return { signal: 'opted_out' };
    case 'do_not_call':
      return { statuses: ['DO_NOT_CALL'] };
  }
}

/** True when the filter needs the last call's analysis (so it cannot be counted by SQL on contacts alone). */
export function needsAnalysis(filter: LeadFilter): boolean {
  return Boolean(filter.signal || filter.extraction?.length || filter.evaluation?.length);
}

/** A yes/no analysis value: true, "true", "yes", "1" → true; false, "false", "no", "0" → false; else unknown. */
export function readFlag(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : null;
  if (typeof value !== 'string') return null;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'yes' || v === '1') return true;
  if (v === 'false' || v === 'no' || v === '0') return false;
  return null;
}

function signalValue(lead: ExportLead, key: string): unknown {
  const call = lead.finalCall;
  if (!call) return undefined;
  return call.evaluation?.[key] ?? call.extraction?.[key];
}

/** Analysis values as text, for matching and for report cells: arrays joined by "; ". */
export function valueText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((v) => valueText(v) ?? '').join('; ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function matchesValues(source: Record<string, unknown> | null | undefined, matches: ValueMatch[] | undefined): boolean {
  if (!matches?.length) return true;
  return matches.every((m) => {
    const text = valueText(source?.[m.key]);
    return text !== null && m.values.includes(text);
  });
}

/** Whether a lead passes the whole filter (contact members included, so fakes and SQL agree). */
export function matchesLead(filter: LeadFilter, lead: ExportLead): boolean {
  if (filter.statuses && !filter.statuses.includes(lead.status)) return false;
  if (filter.outcomes && (lead.lastOutcome === null || !filter.outcomes.includes(lead.lastOutcome))) return false;
  if (!matchesValues(lead.finalCall?.extraction, filter.extraction)) return false;
  if (!matchesValues(lead.finalCall?.evaluation, filter.evaluation)) return false;
  switch (filter.signal) {
    case 'interested':
      return readFlag(signalValue(lead, 'interested')) === true;
    case 'not_interested':
      return readFlag(signalValue(lead, 'interested')) === false;
    case 'opted_out':
      return readFlag(signalValue(lead, 'do_not_call')) === true;
    default:
      return true;
  }
}
