import { ALL_SCOPES } from '@outreach/core';
import { UsageError } from './cli-errors';
import { parseBoolean, parseFeatures, parseId, parseInteger, parseIsoDate, parseList, parseOneOf, parseOrNone, parseScopes } from './option-parsers';

describe('CLI option parsers', () => {
  it('integers: decimal digits only, safe range', () => {
    expect(parseInteger('--n', '42')).toBe(42);
    expect(parseInteger('--n', '-3')).toBe(-3);
    for (const bad of ['12.5', '1e3', '0x10', '', 'ten', '99999999999999999999']) {
      expect(() => parseInteger('--n', bad)).toThrow(UsageError);
    }
    expect(() => parseInteger('--amount', '12.5')).toThrow('--amount must be a whole number, got "12.5"');
  });

  it('ISO dates: date or date-time with an offset, real calendar days only', () => {
    expect(parseIsoDate('--d', '2027-01-01').toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(parseIsoDate('--d', '2027-01-01T10:30:00+02:00').toISOString()).toBe('2027-01-01T08:30:00.000Z');
    expect(parseIsoDate('--d', '2027-01-01T10:30Z').toISOString()).toBe('2027-01-01T10:30:00.000Z');
    for (const bad of ['2027-02-30', '2027-13-01', '2027-01-01T10:30:00', 'tomorrow', '1700000000', '2027-1-1']) {
      expect(() => parseIsoDate('--d', bad)).toThrow(UsageError);
    }
  });

  it('enums, booleans, ids', () => {
    expect(parseOneOf('--status', 'ACTIVE', ['ACTIVE', 'SUSPENDED'])).toBe('ACTIVE');
    expect(() => parseOneOf('--status', 'active', ['ACTIVE', 'SUSPENDED'])).toThrow('--status must be one of ACTIVE, SUSPENDED, got "active"');
    expect(parseBoolean('--frozen', 'false')).toBe(false);
    expect(() => parseBoolean('--frozen', 'yes')).toThrow(UsageError);
    expect(parseId('--id', '6F1C0D3E-2B7A-4C1E-9A55-0D6B8E2F4A11')).toBe('6f1c0d3e-2b7a-4c1e-9a55-0d6b8e2f4a11');
    expect(() => parseId('--id', '42')).toThrow(UsageError);
  });

  it('lists, scopes, features, none', () => {
    expect(parseList(' a, b,,c ')).toEqual(['a', 'b', 'c']);
    expect(parseScopes('--scopes', 'calls.edit,campaigns.view')).toEqual(['calls.edit', 'campaigns.view']);
    expect(parseScopes('--scopes', 'all')).toEqual([...ALL_SCOPES]);
    expect(parseScopes('--scopes', '')).toEqual([]);
    expect(() => parseScopes('--scopes', 'calls.edit,calls.delete')).toThrow('--scopes: unknown scope calls.delete');
    expect(parseFeatures('--f', '+crm,-email,inbound', ['crm', 'email', 'inbound'], { toggles: true })).toEqual(['+crm', '-email', 'inbound']);
    expect(() => parseFeatures('--f', '+crm', ['crm'], { toggles: false })).toThrow('--f: unknown feature +crm');
    expect(parseOrNone('none', (raw) => parseInteger('--n', raw))).toEqual({ value: null });
    expect(parseOrNone('7', (raw) => parseInteger('--n', raw))).toEqual({ value: 7 });
  });
});
