/** What a call told us about the lead, read at settlement (decisions.md 35.3, 35.6). */
export interface CallSignals {
  /** true interested, false not, null not said. */
  interested: boolean | null;
  /** Numbers the person gave for someone else to call, as they were given. */
  referrals: string[];
}

const YES = new Set(['true', 'yes', '1']);
const NO = new Set(['false', 'no', '0']);

/** A yes/no however the provider wrote it (the export's reading, decisions.md 26.4). */
function flag(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' || typeof value === 'string') {
    const text = String(value).trim().toLowerCase();
    if (YES.has(text)) return true;
    if (NO.has(text)) return false;
  }
  return null;
}

/**
 * The signals of the provider's own analysis of the call (`providerAnalysis`, decisions.md 16.28):
 * `interested` and `referrals` at its top level or under `structuredData` (where Vapi puts what the
 * assistant was asked to capture). Anything else, or no analysis: nothing said.
 */
export function callSignals(providerAnalysis: Record<string, unknown> | null | undefined): CallSignals {
  if (!providerAnalysis) return { interested: null, referrals: [] };
  const nested = providerAnalysis.structuredData;
  const data: Record<string, unknown> = {
    ...(nested && typeof nested === 'object' && !Array.isArray(nested) ? (nested as Record<string, unknown>) : {}),
    ...providerAnalysis,
  };
  const referrals = Array.isArray(data.referrals) ? data.referrals.filter((r): r is string => typeof r === 'string' && r.trim() !== '') : [];
  return { interested: flag(data.interested), referrals };
}
