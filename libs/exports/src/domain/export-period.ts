import { AppError } from '@outreach/core';

/** The contract's export periods (docs/decisions.md 26.3). */
export const EXPORT_PERIODS = ['today', 'last_7_days', 'this_month', 'last_month', 'all_time', 'custom'] as const;
export type ExportPeriod = (typeof EXPORT_PERIODS)[number];

/** A resolved period: rows whose activity falls in [from, to); null = unbounded on that side. */
export interface ExportRange {
  period: ExportPeriod;
  from: Date | null;
  to: Date | null;
}

const DAY_MS = 24 * 3600 * 1000;

function isPeriod(value: string): value is ExportPeriod {
  return (EXPORT_PERIODS as readonly string[]).includes(value);
}

/**
 * Turns `period` (+ `from`/`to` for custom) into instants, in UTC (decisions.md 26.3):
 * today = since 00:00 today; last_7_days = the last 7×24 h; this_month = since the 1st 00:00;
 * last_month = the whole previous calendar month; all_time = no bound; custom = [from, to).
 * `from`/`to` are ignored for the presets.
 */
export function resolveExportPeriod(input: { period?: string | null; from?: Date | null; to?: Date | null }, now: Date): ExportRange {
  const period = input.period ?? 'all_time';
  if (!isPeriod(period)) {
    throw new AppError('invalid_export_period', { message: `period ${JSON.stringify(period)} is not one of ${EXPORT_PERIODS.join(', ')}` });
  }
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  switch (period) {
    case 'today':
      return { period, from: new Date(Date.UTC(y, m, now.getUTCDate())), to: null };
    case 'last_7_days':
      return { period, from: new Date(now.getTime() - 7 * DAY_MS), to: null };
    case 'this_month':
      return { period, from: new Date(Date.UTC(y, m, 1)), to: null };
    case 'last_month':
      return { period, from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1)) };
    case 'all_time':
      return { period, from: null, to: null };
    case 'custom': {
      const { from, to } = input;
      if (!from || !to) throw new AppError('invalid_export_range', { message: 'a custom period needs both from and to' });
      if (to.getTime() <= from.getTime()) throw new AppError('invalid_export_range', { message: 'to must be later than from' });
      return { period, from, to };
    }
  }
}
