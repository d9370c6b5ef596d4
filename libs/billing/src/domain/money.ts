import { AppError } from '@outreach/core';

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

/** A debit may be 0 (an answered call of 0 ms still leaves its audit row); never negative or fractional. */
export function assertDebitAmount(amountMinor: number): void {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0 || amountMinor > MAX_ENTRY_MINOR) {
    throw new AppError('invalid_request', {
      message: `debit amount must be a whole number of minor units from 0 to ${MAX_ENTRY_MINOR}`,
    });
  }
}

export const DEBIT_KINDS = ['call', 'message', 'test_call'] as const;
export type DebitKind = (typeof DEBIT_KINDS)[number];

export function assertDebitKind(kind: string): asserts kind is DebitKind {
  if (!(DEBIT_KINDS as readonly string[]).includes(kind)) {
    throw new AppError('invalid_request', { message: `debit kind must be one of ${DEBIT_KINDS.join(', ')}` });
  }
}

/** Debits are idempotent by (workspace, kind, reference): the reference is required. */
export function assertDebitReference(reference: string): void {
  if (typeof reference !== 'string' || reference.length < 1 || reference.length > 200) {
    throw new AppError('invalid_request', { message: 'debit reference must be 1-200 characters' });
  }
}
