import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * A phone number in E.164, or null when libphonenumber-js cannot read it as a valid number.
 * Without a default region, numbers need their calling code ("+44…" or "0044…").
 */
export function toE164(raw: string): string | null {
  const text = raw.trim();
  if (text === '' || text.length > 64) return null;
  const international = text.startsWith('00') ? `+${text.slice(2)}` : text;
  const parsed = parsePhoneNumberFromString(international);
  return parsed && parsed.isValid() ? parsed.number : null;
}
