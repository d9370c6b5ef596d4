import type { NextStep } from './retry-policy';

/**
 * Where the contact of an INBOUND campaign goes after its call (decisions.md 36.3): the caller
 * called us, so nothing is retried (an INBOUND campaign never dials) — a call a human took
 * (completed, transferred) completes the contact, anything else fails it; the caller's next call
 * starts a new attempt.
 */
export function inboundStep(outcome: string): NextStep {
  return outcome === 'completed' || outcome === 'transferred' ? { status: 'COMPLETED', reason: outcome } : { status: 'FAILED', reason: outcome };
}
