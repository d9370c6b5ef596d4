import { isE164, isExcelMangledPhone, isKnownCallingCode, normalisePhone } from './phone';

describe('normalisePhone', () => {
  it.each([
    ['+1 (415) 555-2671', null, '+14155552671'],
    ['415-555-2671', '+1', '+14155552671'],
    ['09876543210', '+91', '+919876543210'],
    ['9876543210', '+91', '+919876543210'],
    ['9876543210', '91', '+919876543210'],
    ['0044 20 7946 0958', null, '+442079460958'],
    ['+44 20 7946 0958', '+91', '+442079460958'],
    ['  +14155552671  ', null, '+14155552671'],
  ])('%s (default %s) → %s', (raw, cc, expected) => {
    expect(normalisePhone(raw, cc)).toBe(expected);
  });

  it('needs no default calling code for numbers that carry theirs', () => {
    expect(normalisePhone('+14155552671')).toBe('+14155552671');
    expect(normalisePhone('0014155552671')).toBe('+14155552671');
  });

  it.each([[''], ['   '], ['abc'], ['12'], ['415-555-2671'], ['+1 415 555 267'], [`+1415555267${'1'.repeat(60)}`]])(
    'refuses %s without enough information',
    (raw) => {
      expect(normalisePhone(raw, null)).toBeNull();
    },
  );

  it('answers null (never throws) for an unknown calling code', () => {
    expect(normalisePhone('4155552671', '+999')).toBeNull();
    expect(normalisePhone('+999 4155552671', null)).toBeNull();
  });

  it('answers E.164 that isE164 accepts', () => {
    for (const raw of ['+1 (415) 555-2671', '0044 20 7946 0958']) expect(isE164(normalisePhone(raw)!)).toBe(true);
  });
});

describe('isE164', () => {
  it.each(['+14155550123', '+442079460958', '+12345678', '+123456789012345'])('accepts %s', (text) => {
    expect(isE164(text)).toBe(true);
  });

  it.each(['4155550123', '+04155550123', '+1234567', '+1234567890123456', '+1 415 555 0123', ' +14155550123', '0014155550123', ''])(
    'refuses %j (it checks, it does not normalise)',
    (text) => {
      expect(isE164(text)).toBe(false);
    },
  );
});

describe('isKnownCallingCode', () => {
  it('knows the calling codes in use, written with their +', () => {
    expect(isKnownCallingCode('+1')).toBe(true);
    expect(isKnownCallingCode('+91')).toBe(true);
    expect(isKnownCallingCode('+999')).toBe(false);
    expect(isKnownCallingCode('91')).toBe(false);
  });
});

describe('isExcelMangledPhone', () => {
  it('recognises Excel scientific notation', () => {
    expect(isExcelMangledPhone('9.19876E+11')).toBe(true);
    expect(isExcelMangledPhone('9,19876E+11')).toBe(true);
    expect(isExcelMangledPhone(' 9.19876e11 ')).toBe(true);
    expect(isExcelMangledPhone('+919876543210')).toBe(false);
    expect(isExcelMangledPhone('')).toBe(false);
  });
});
