/** One campaign's use of its workspace's lines. */
export interface LineUse {
  campaignId: string;
  /** Only RUNNING campaigns hold their reservation. */
  running: boolean;
  reservedConcurrency: number;
  allowBurst: boolean;
  inFlight: number;
}

/**
 * Free attempt slots for one campaign (decisions.md 16.2, 12.6): its reservation, plus — with allowBurst —
 * the workspace's idle unreserved lines (allocation − reservations of RUNNING campaigns − what
 * others already use beyond their own reservations), minus its attempts in flight; and never
 * more than the workspace allocation minus every attempt in flight. Attempts of campaigns that
 * no longer run (paused, exhausted, stopped) still occupy lines until they finish.
 */
export function freeSlots(campaignId: string, allocation: number, uses: readonly LineUse[]): number {
  const own = uses.find((u) => u.campaignId === campaignId);
  if (!own || !own.running) return 0;
  const totalInFlight = uses.reduce((sum, u) => sum + u.inFlight, 0);
  const reserved = uses.filter((u) => u.running).reduce((sum, u) => sum + u.reservedConcurrency, 0);
  const burstByOthers = uses
    .filter((u) => u.campaignId !== campaignId)
    .reduce((sum, u) => sum + Math.max(0, u.inFlight - (u.running ? u.reservedConcurrency : 0)), 0);
  const idleUnreserved = Math.max(0, allocation - reserved - burstByOthers);
  const limit = own.reservedConcurrency + (own.allowBurst ? idleUnreserved : 0);
  return Math.max(0, Math.min(limit - own.inFlight, allocation - totalInFlight));
}
