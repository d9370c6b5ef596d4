import { loadConfig } from '@outreach/platform';
import { AesGcmSecretCipher } from './aes-gcm-secret-cipher';

describe('AesGcmSecretCipher and FUNCTION_SECRETS_KEY', () => {
  const hexKey = 'ab'.repeat(32);
  const cipher = new AesGcmSecretCipher(loadConfig({ FUNCTION_SECRETS_KEY: hexKey }));

  it('round-trips, with a fresh IV every time', () => {
    const a = cipher.encrypt('{"Authorization":"secret"}', 'ctx');
    const b = cipher.encrypt('{"Authorization":"secret"}', 'ctx');
    expect(a).not.toBe(b);
    expect(a).not.toContain('secret');
    expect(cipher.decrypt(a, 'ctx')).toBe('{"Authorization":"secret"}');
  });

  it('refuses another context, a tampered ciphertext and another key', () => {
    const sealed = cipher.encrypt('value', 'row-1');
    expect(() => cipher.decrypt(sealed, 'row-2')).toThrow();
    const [v, iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(() => cipher.decrypt([v, iv, tag, flipped.toString('base64url')].join('.'), 'row-1')).toThrow();
    const other = new AesGcmSecretCipher(loadConfig({ FUNCTION_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') }));
    expect(() => other.decrypt(sealed, 'row-1')).toThrow();
    expect(() => cipher.decrypt('v0.x.y.z', 'row-1')).toThrow('unknown format');
  });

  it('config: hex or base64 32-byte keys; a deterministic development default; required in production', () => {
    expect(loadConfig({ FUNCTION_SECRETS_KEY: hexKey }).functionSecretsKey).toEqual(Buffer.from(hexKey, 'hex'));
    const dev1 = loadConfig({});
    const dev2 = loadConfig({ NODE_ENV: 'test' });
    expect(dev1.functionSecretsKeyIsDefault).toBe(true);
    expect(dev1.functionSecretsKey).toHaveLength(32);
    expect(dev1.functionSecretsKey).toEqual(dev2.functionSecretsKey);
    expect(() => loadConfig({ FUNCTION_SECRETS_KEY: 'too-short' })).toThrow(/FUNCTION_SECRETS_KEY/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/FUNCTION_SECRETS_KEY: required in production/);
  });
});
