import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'pk_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const API_KEY_SECRET_LENGTH = 43;
const API_KEY_PATTERN = /^pk_live_[0-9A-Za-z]{43}$/;

/** A new key: `pk_live_` + 43 base62 characters (~256 bits), from the CSPRNG without modulo bias. */
export function generateApiKey(): string {
  let out = '';
  while (out.length < API_KEY_SECRET_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && out.length < API_KEY_SECRET_LENGTH) out += BASE62[byte % 62];
    }
  }
  return API_KEY_PREFIX + out;
}

export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** Only this is stored: SHA-256 of the whole key. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** The non-secret part shown in listings: the prefix and the first 4 characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 4);
}
