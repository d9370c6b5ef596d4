/** The outcome that counts against the carrier (a provider that refused the call is one too). */
const CARRIER_FAILURE = 'carrier_failure';

/** The pause reason of a campaign whose circuit breaker opened. */
export const CIRCUIT_OPEN = 'circuit_open';

/**
 * The circuit breaker (decisions.md 16.26): open when the window is full — `window` settled calls
 * since the campaign went RUNNING — and more than `failurePercent` % of them were carrier failures.
 * `outcomes` are the latest first; anything beyond the window is ignored.
 */
export function circuitOpen(outcomes: readonly string[], settings: { circuitBreakerWindow: number; circuitBreakerFailurePercent: number }): boolean {
  const window = settings.circuitBreakerWindow;
  if (outcomes.length < window) return false;
  const failures = outcomes.slice(0, window).filter((o) => o === CARRIER_FAILURE).length;
  return failures * 100 > settings.circuitBreakerFailurePercent * window;
}
