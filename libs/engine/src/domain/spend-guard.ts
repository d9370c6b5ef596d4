/** Why the service pauses a campaign whose budget cannot pay for one more call (decisions.md 29.1). */
export const BUDGET_REACHED = 'budget_reached';

/**
 * The most one call can cost: the tariff per started minute times the started minutes of the
 * longest call the agent may hold (maxCallDurationSecs, which the provider enforces).
 */
export function perCallMaxMinor(voiceMinuteMinor: number, maxCallDurationSecs: number): number {
  return voiceMinuteMinor * Math.ceil(maxCallDurationSecs / 60);
}

/**
 * The spend guard (decisions.md 29.1): how many more calls a campaign may start so that its debits
 * cannot pass its budget — what is left after what it spent and the most its calls in flight can
 * still cost, in whole calls at the per-call maximum. No budget, or free calls: no limit.
 */
export function callsWithinBudget(input: { budgetMinor: number | null; spentMinor: number; inFlight: number; perCallMaxMinor: number }): number {
  if (input.budgetMinor === null || input.perCallMaxMinor <= 0) return Number.POSITIVE_INFINITY;
  const left = input.budgetMinor - input.spentMinor - input.inFlight * input.perCallMaxMinor;
  return Math.max(0, Math.floor(left / input.perCallMaxMinor));
}
