import { EXCEL_MANGLED_PHONE, normalisePhone } from './phone-normaliser';

describe('normalisePhone', () => {
  it.each([
    ['+1 (415) 555-2671', null, '+14155552671'],
    ['415-555-2671', '+1', '+14155552671'],
    ['09876543210', '+91', '+919876543210'],
    ['9876543210', '+91', '+919876543210'],
    ['0044 20 7946 0958', null, '+442079460958'],
    ['+44 20 7946 0958', '+91', '+442079460958'],
  ])('%s (default %s) → %s', (raw, cc, expected) => {
    expect(normalisePhone(raw, cc)).toBe(expected);
  });

  it.each([[''], ['abc'], ['12'], ['415-555-2671'], ['+1 415 555 267']])('refuses %s without enough information', (raw) => {
    expect(normalisePhone(raw, null)).toBeNull();
  });

  it('answers null (never throws) for an unknown calling code', () => {
    expect(normalisePhone('4155552671', '+999')).toBeNull();
    expect(normalisePhone('+999 4155552671', null)).toBeNull();
  });

  it('recognises Excel scientific notation', () => {
    expect(EXCEL_MANGLED_PHONE.test('9.19876E+11')).toBe(true);
    expect(EXCEL_MANGLED_PHONE.test('9,19876E+11')).toBe(true);
    expect(EXCEL_MANGLED_PHONE.test('+919876543210')).toBe(false);
  });
});
