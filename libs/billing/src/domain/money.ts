import { AppError } from '@outreach/platform/core';

/** Largest amount accepted in one ledger entry, in minor units (keeps sums exact in a double). */
export const MAX_ENTRY_MINOR = 1_000_000_000_000;

/** Amounts are integer minor units of the workspace currency; never floats. */
export function assertCreditAmount(amountMinor: number): void {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0 || amountMinor > MAX_ENTRY_MINOR) {
    throw new AppError('invalid_request', {
      message: `amount must be a whole number of minor units from 1 to ${MAX_ENTRY_MINOR}`,
    });
  }
}

export function assertReference(reference: string | undefined): void {
  if (reference !== undefined && (reference.length < 1 || reference.length > 200)) {
    throw new AppError('invalid_request', { message: 'reference must be 1-200 characters' });
  }
}
