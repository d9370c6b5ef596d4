import { AppError } from '@outreach/core';
import { ContactStatus } from './contact-state-machine';

/**
 * The segments a re-engage takes (decisions.md 35.1), named like the export's preset segments
 * (decisions.md 26.4) but only their finished contacts: `completed` (reached), `failed` (every
 * attempt spent), `not_reached` (finished with an unreached last outcome), `all` (every finished
 * contact). DO_NOT_CALL is never re-engaged; the analysis segments (interested, not_interested,
 * opted_out) are not offered: they read the calls' analysis, which the contacts table does not hold.
 */
export const REENGAGE_SEGMENTS = ['completed', 'failed', 'not_reached', 'all'] as const;
export type ReengageSegment = (typeof REENGAGE_SEGMENTS)[number];

/** Which finished contacts a re-engage takes. */
export interface ContactSelection {
  statuses: readonly ContactStatus[];
  /** Only contacts whose last outcome is one of these; null: any. */
  lastOutcomes: readonly string[] | null;
  /** Only contacts whose last call talked less than this, ms; null: any. */
  talkedLessThanMs: number | null;
}

/** Outcomes of an attempt that reached nobody (the export's not_reached, decisions.md 26.4). */
const NOT_REACHED_OUTCOMES = ['no_answer', 'busy', 'voicemail', 'carrier_failure'];
/** Outcomes where a person answered (telephony's CONNECTED_OUTCOMES). */
const CONNECTED_OUTCOMES = ['transferred', 'completed'];

export function reengageSelection(segment: ReengageSegment): ContactSelection {
  switch (segment) {
    case 'completed':
      return { statuses: ['COMPLETED'], lastOutcomes: null, talkedLessThanMs: null };
    case 'failed':
      return { statuses: ['FAILED'], lastOutcomes: null, talkedLessThanMs: null };
    case 'not_reached':
      return { statuses: ['COMPLETED', 'FAILED'], lastOutcomes: NOT_REACHED_OUTCOMES, talkedLessThanMs: null };
    case 'all':
      return { statuses: ['COMPLETED', 'FAILED'], lastOutcomes: null, talkedLessThanMs: null };
  }
}

/**
 * Finish-interrupted (decisions.md 35.2): the contacts that ended COMPLETED on a call a person
 * answered but that talked less than incompleteCallSeconds, refused (409 incomplete_retry_disabled)
 * while incomplete-call retries are off.
 */
export function interruptedSelection(settings: { incompleteRetryEnabled: boolean; incompleteCallSeconds: number }): ContactSelection {
  if (!settings.incompleteRetryEnabled) {
    throw new AppError('incomplete_retry_disabled', { message: 'finish-interrupted needs incompleteRetryEnabled; turn it on with PATCH first' });
  }
  return { statuses: ['COMPLETED'], lastOutcomes: CONNECTED_OUTCOMES, talkedLessThanMs: settings.incompleteCallSeconds * 1000 };
}
