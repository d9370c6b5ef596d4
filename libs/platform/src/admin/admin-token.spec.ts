import { loadConfig } from '@outreach/core';
import { adminTokenMatches, presentedAdminToken } from './admin-token';

describe('admin token', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');

  it('is read from a Bearer header or from Basic (the password, any user name)', () => {
    expect(presentedAdminToken('Bearer abc')).toBe('abc');
    expect(presentedAdminToken('bearer   abc')).toBe('abc');
    expect(presentedAdminToken(`Basic ${b64('admin:s3cret:with:colons')}`)).toBe('s3cret:with:colons');
    expect(presentedAdminToken(`Basic ${b64(':s3cret')}`)).toBe('s3cret');
  });

  it('is absent otherwise', () => {
    expect(presentedAdminToken(undefined)).toBeNull();
    expect(presentedAdminToken('')).toBeNull();
    expect(presentedAdminToken('Bearer')).toBeNull();
    expect(presentedAdminToken('abc')).toBeNull();
    expect(presentedAdminToken(`Basic ${b64('no-colon')}`)).toBeNull();
    expect(presentedAdminToken('Token abc')).toBeNull();
  });

  it('matches only the exact token, whatever the lengths', () => {
    expect(adminTokenMatches('0123456789abcdef', '0123456789abcdef')).toBe(true);
    expect(adminTokenMatches('0123456789abcdeF', '0123456789abcdef')).toBe(false);
    expect(adminTokenMatches('0123456789abcdef0', '0123456789abcdef')).toBe(false);
    expect(adminTokenMatches('', '0123456789abcdef')).toBe(false);
    expect(adminTokenMatches(null, '0123456789abcdef')).toBe(false);
  });

  it('ADMIN_TOKEN is optional, and at least 16 characters when set', () => {
    expect(loadConfig({}).adminToken).toBeNull();
    expect(loadConfig({ ADMIN_TOKEN: 'x'.repeat(16) }).adminToken).toBe('x'.repeat(16));
    expect(() => loadConfig({ ADMIN_TOKEN: 'short' })).toThrow(/ADMIN_TOKEN: expected at least 16 characters/);
  });
});
