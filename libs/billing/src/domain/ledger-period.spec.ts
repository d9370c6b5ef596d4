import { AppError } from '@outreach/core';
import { ledgerRange } from './ledger-period';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.code : 'not-an-app-error';
  }
  return undefined;
};

describe('ledger periods (UTC, at the clock’s now)', () => {
  // 00:30 UTC on 1 March: still 28 February in New York, which must not matter.
  const now = new Date('2026-03-01T00:30:00.000Z');

  it('today is the current UTC day', () => {
    expect(ledgerRange('today', now)).toEqual({ from: '2026-03-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' });
  });

  it('last_7_days is today and the 6 days before', () => {
    expect(ledgerRange('last_7_days', now)).toEqual({ from: '2026-02-23T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' });
  });

  it('this_month and last_month are UTC calendar months, across a year boundary too', () => {
    expect(ledgerRange('this_month', now)).toEqual({ from: '2026-03-01T00:00:00.000Z', to: '2026-04-01T00:00:00.000Z' });
    expect(ledgerRange('last_month', now)).toEqual({ from: '2026-02-01T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' });
    const january = new Date('2026-01-15T12:00:00Z');
    expect(ledgerRange('last_month', january)).toEqual({ from: '2025-12-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' });
    expect(ledgerRange('this_month', new Date('2026-12-31T23:59:59.999Z'))).toEqual({
      from: '2026-12-01T00:00:00.000Z',
      to: '2027-01-01T00:00:00.000Z',
    });
  });

  it('all_time is unbounded', () => {
    expect(ledgerRange('all_time', now)).toEqual({ from: null, to: null });
  });

  it('custom is [from, to) and needs both, in order', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    const to = new Date('2026-01-02T00:00:00Z');
    expect(ledgerRange('custom', now, { from, to })).toEqual({ from: from.toISOString(), to: to.toISOString() });
    expect(codeOf(() => ledgerRange('custom', now, { from }))).toBe('invalid_custom_range');
    expect(codeOf(() => ledgerRange('custom', now, { to }))).toBe('invalid_custom_range');
    expect(codeOf(() => ledgerRange('custom', now, { from: to, to: from }))).toBe('invalid_custom_range');
    expect(codeOf(() => ledgerRange('custom', now, { from, to: from }))).toBe('invalid_custom_range');
  });

  it('since_last_recharge starts at the latest credit, or 409 no_recharge_found', () => {
    expect(ledgerRange('since_last_recharge', now, { lastRechargeAt: '2026-02-10T08:00:00.123456Z' })).toEqual({
      from: '2026-02-10T08:00:00.123456Z',
      to: null,
    });
    expect(codeOf(() => ledgerRange('since_last_recharge', now, { lastRechargeAt: null }))).toBe('no_recharge_found');
  });
});
