import { AppError } from '@outreach/core';

const MS_PER_MINUTE = 60_000;

/** Minutes billed for a call: every started minute counts; 0 ms is 0 minutes. */
export function startedMinutes(durationMs: number): number {
  if (!Number.isFinite(durationMs) || durationMs < 0) {
    throw new AppError('invalid_request', { message: 'call duration must be a finite number of milliseconds ≥ 0' });
  }
  return Math.ceil(durationMs / MS_PER_MINUTE);
}

/** Price of an answered call of `durationMs` at `perMinuteMinor` per started minute. */
export function voiceCost(durationMs: number, perMinuteMinor: number): number {
  return startedMinutes(durationMs) * perMinuteMinor;
}

/** Largest per-unit price accepted in a tariff, minor units. */
export const MAX_TARIFF_MINOR = 1_000_000_000;

export function assertTariffAmount(name: string, value: number | null | undefined): void {
  if (value === null || value === undefined) return;
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_TARIFF_MINOR) {
    throw new AppError('invalid_request', { message: `${name} must be a whole number of minor units from 0 to ${MAX_TARIFF_MINOR}` });
  }
}
