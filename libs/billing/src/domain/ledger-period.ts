import { AppError } from '@outreach/core';

export const LEDGER_PERIODS = [
  'today',
  'last_7_days',
  'this_month',
  'last_month',
  'all_time',
  'custom',
  'since_last_recharge',
] as const;
export type LedgerPeriod = (typeof LEDGER_PERIODS)[number];

/** A half-open range [from, to) of ISO-8601 UTC instants; null = unbounded. */
export interface LedgerRange {
  from: string | null;
  to: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function startOfUtcDay(at: Date): number {
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The range of a ledger period, evaluated in UTC at `now` (the Clock port's time):
 * today = the current UTC day; last_7_days = today and the 6 UTC days before it; this_month /
 * last_month = calendar months in UTC; all_time = unbounded; custom = [from, to) with from < to
 * (else 400 invalid_custom_range); since_last_recharge = from the latest credit on
 * (`lastRechargeAt`, else 409 no_recharge_found).
 */
export function ledgerRange(
  period: LedgerPeriod,
  now: Date,
  input: { from?: Date; to?: Date; lastRechargeAt?: string | null } = {},
): LedgerRange {
  const today = startOfUtcDay(now);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  switch (period) {
    case 'today':
      return { from: iso(today), to: iso(today + DAY_MS) };
    case 'last_7_days':
      return { from: iso(today - 6 * DAY_MS), to: iso(today + DAY_MS) };
    case 'this_month':
      return { from: iso(Date.UTC(y, m, 1)), to: iso(Date.UTC(y, m + 1, 1)) };
    case 'last_month':
      return { from: iso(Date.UTC(y, m - 1, 1)), to: iso(Date.UTC(y, m, 1)) };
    case 'all_time':
      return { from: null, to: null };
    case 'custom': {
      const { from, to } = input;
      if (!from || !to) throw new AppError('invalid_custom_range', { message: 'period=custom needs both from and to' });
      if (from.getTime() >= to.getTime()) throw new AppError('invalid_custom_range', { message: 'from must be before to' });
      return { from: from.toISOString(), to: to.toISOString() };
    }
    case 'since_last_recharge':
      if (!input.lastRechargeAt) throw new AppError('no_recharge_found', { message: 'The workspace has no recharge yet' });
      return { from: input.lastRechargeAt, to: null };
  }
}
