/**
 * retryConcurrencyPercent (decisions.md 35.7): the share of a campaign's reserved lines that
 * retries (retries, follow-ups, churn re-contacts: any attempt after a contact's first) may hold
 * while first dials are waiting, so fresh contacts are not starved by a backlog of retries. Any
 * percentage above 0 gives retries at least one line; 0 lets them run only on lines no first dial
 * wants. Lines first dials leave idle always go to due retries.
 *
 * Returns how many more retries this dispatch may claim before first dials.
 */
export function retryClaimLimit(input: { reservedConcurrency: number; retryConcurrencyPercent: number; retriesInFlight: number }): number {
  const { reservedConcurrency, retryConcurrencyPercent, retriesInFlight } = input;
  const lines = retryConcurrencyPercent <= 0 ? 0 : Math.max(1, Math.floor((reservedConcurrency * retryConcurrencyPercent) / 100));
  return Math.max(0, lines - retriesInFlight);
}
