import { callsWithinBudget, perCallMaxMinor } from './spend-guard';

describe('spend guard (decisions.md 29.1)', () => {
  it('prices a call at the tariff times the started minutes of the longest call', () => {
    expect(perCallMaxMinor(10, 600)).toBe(100);
    expect(perCallMaxMinor(10, 61)).toBe(20);
    expect(perCallMaxMinor(0, 600)).toBe(0);
  });

  it('allows the whole calls that fit after the spend and the worst case of the calls in flight', () => {
    expect(callsWithinBudget({ budgetMinor: 1000, spentMinor: 0, inFlight: 0, perCallMaxMinor: 100 })).toBe(10);
    expect(callsWithinBudget({ budgetMinor: 1000, spentMinor: 250, inFlight: 2, perCallMaxMinor: 100 })).toBe(5);
    expect(callsWithinBudget({ budgetMinor: 1000, spentMinor: 901, inFlight: 0, perCallMaxMinor: 100 })).toBe(0);
    expect(callsWithinBudget({ budgetMinor: 1000, spentMinor: 900, inFlight: 0, perCallMaxMinor: 100 })).toBe(1);
  });

  it('never goes below zero, even when calls cost less than feared and the budget was passed by an older debit', () => {
    expect(callsWithinBudget({ budgetMinor: 100, spentMinor: 150, inFlight: 1, perCallMaxMinor: 100 })).toBe(0);
  });

  it('has no limit without a budget or when calls are free', () => {
    expect(callsWithinBudget({ budgetMinor: null, spentMinor: 10, inFlight: 3, perCallMaxMinor: 100 })).toBe(Number.POSITIVE_INFINITY);
    expect(callsWithinBudget({ budgetMinor: 100, spentMinor: 0, inFlight: 3, perCallMaxMinor: 0 })).toBe(Number.POSITIVE_INFINITY);
  });
});
