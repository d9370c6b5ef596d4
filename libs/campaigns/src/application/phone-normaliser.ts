import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';

/** A phone cell Excel turned into scientific notation (9.19876E+11): its digits are lost. */
export const EXCEL_MANGLED_PHONE = /^[+-]?\d+(?:[.,]\d+)?e\+?\d+$/i;

/**
 * Normalises a phone number to E.164, or null when it is not a valid number. Numbers written
 * without a calling code take `countryCode` (e.g. "+91") as the default; "00" is read as "+".
 */
export function normalisePhone(raw: string, countryCode: string | null): string | null {
  const text = raw.trim();
  if (text === '' || text.length > 64) return null;
  const international = text.startsWith('00') ? `+${text.slice(2)}` : text;
  const callingCode = countryCode?.replace(/^\+/, '');
  if (callingCode !== undefined && !isKnownCallingCode(`+${callingCode}`)) return null;
  const parsed = callingCode
    ? parsePhoneNumberFromString(international, { defaultCallingCode: callingCode })
    : parsePhoneNumberFromString(international);
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number;
}

const CALLING_CODES = new Set(getCountries().map((country) => `+${getCountryCallingCode(country)}`));

/** Whether "+91"-style text is a calling code in use (libphonenumber throws on unknown ones). */
export function isKnownCallingCode(code: string): boolean {
  return CALLING_CODES.has(code);
}
