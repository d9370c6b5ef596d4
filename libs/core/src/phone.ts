import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * The service's one reading of phone numbers (libphonenumber-js stays behind this file). Every
 * module that takes a number from a client or an operator asks here: imports, the lead push, the
 * do-not-call list, test calls, the numbers a workspace calls from.
 */

/** Longest text read as a phone number; anything longer is not one. */
const MAX_PHONE_INPUT = 64;

/** The E.164 form the service stores: "+", then 8-15 digits, the first not 0 (as the database checks it). */
const E164 = /^\+[1-9]\d{7,14}$/;

/** A phone cell Excel turned into scientific notation (9.19876E+11): its digits are lost. */
const EXCEL_SCIENTIFIC_NOTATION = /^[+-]?\d+(?:[.,]\d+)?e\+?\d+$/i;

const CALLING_CODES = new Set(getCountries().map((country) => `+${getCountryCallingCode(country)}`));

/**
 * A number in E.164, or null when it is not a valid number. "00" is read as "+". A number written
 * without its calling code takes `defaultCallingCode` ("+91" or "91"); without one, it needs its own.
 * Never throws: an unknown calling code answers null too.
 */
export function normalisePhone(raw: string, defaultCallingCode: string | null = null): string | null {
  const text = raw.trim();
  if (text === '' || text.length > MAX_PHONE_INPUT) return null;
  const international = text.startsWith('00') ? `+${text.slice(2)}` : text;
  const callingCode = defaultCallingCode?.replace(/^\+/, '');
  if (callingCode !== undefined && !isKnownCallingCode(`+${callingCode}`)) return null;
  const parsed = callingCode
    ? parsePhoneNumberFromString(international, { defaultCallingCode: callingCode })
    : parsePhoneNumberFromString(international);
  return parsed && parsed.isValid() ? parsed.number : null;
}

/** Whether the text is already in the E.164 form the service stores (no normalising: "+", 8-15 digits). */
export function isE164(text: string): boolean {
  return E164.test(text);
}

/** Whether "+91"-style text is a calling code in use (libphonenumber throws on unknown ones). */
export function isKnownCallingCode(code: string): boolean {
  return CALLING_CODES.has(code);
}

/** Whether a phone cell is in scientific notation (9.19876E+11): Excel dropped its digits, nothing can restore them. */
export function isExcelMangledPhone(text: string): boolean {
  return EXCEL_SCIENTIFIC_NOTATION.test(text.trim());
}

/**
 * The country (ISO 3166-1 alpha-2) of an E.164 number and its national significant number, or null
 * when the number is not valid. For shared calling codes (+1, +7, +44 …) the country comes from
 * the number's own leading digits (+1 212 → US, +1 613 → CA).
 */
export function phoneCountry(e164: string): { country: string; nationalNumber: string } | null {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed || !parsed.isValid() || !parsed.country) return null;
  return { country: parsed.country, nationalNumber: parsed.nationalNumber };
}
