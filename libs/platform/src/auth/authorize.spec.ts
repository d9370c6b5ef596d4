import { AppError } from '@outreach/core';
import { hashApiKey, generateApiKey, isWellFormedApiKey, displayPrefix } from './api-key-format';
import { authorize, RouteAccess } from './authorize';
import { ResolvedApiKey } from './principal';

const now = new Date('2026-11-21T12:00:00Z');
const key = generateApiKey();
const hash = hashApiKey(key);

function resolved(over: Partial<ResolvedApiKey> = {}): ResolvedApiKey {
  return {
    keyId: 'k1',
    keyHash: hash,
    revoked: false,
    expiresAt: null,
    scopes: ['campaigns.view'],
    workspace: { id: 'w1', name: 'W', status: 'ACTIVE', features: [], concurrency: 10, rateLimitPerMinute: null },
    member: { id: 'm1', role: 'owner', status: 'ACTIVE' },
    ...over,
  };
}

const scoped = (scope: 'campaigns.view' | 'agents.edit', v1 = false): RouteAccess => ({
  rule: { kind: 'scope', scope },
  v1,
  humanOnly: false,
});

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  return 'allowed';
}

describe('authorize (order of checks)', () => {
  it('generates keys of the documented shape, hashes with SHA-256', () => {
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(key).toHaveLength(8 + 43);
    expect(hash).toHaveLength(32);
    expect(displayPrefix(key)).toBe(key.slice(0, 12));
    const many = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(many.size).toBe(200);
  });

  it('allows a valid key with the scope', () => {
    expect(code(() => authorize(hash, resolved(), scoped('campaigns.view'), now))).toBe('allowed');
  });

  it.each<[string, ResolvedApiKey | null, string]>([
    ['unknown key', null, 'invalid_api_key'],
    ['revoked', resolved({ revoked: true }), 'invalid_api_key'],
    ['expired', resolved({ expiresAt: new Date(now.getTime() - 1) }), 'invalid_api_key'],
    ['expiring exactly now', resolved({ expiresAt: now }), 'invalid_api_key'],
    ['workspace deleted', resolved({ workspace: { ...resolved().workspace, status: 'DELETED' } }), 'invalid_api_key'],
    ['hash mismatch', resolved({ keyHash: hashApiKey('other') }), 'invalid_api_key'],
    ['pending', resolved({ workspace: { ...resolved().workspace, status: 'PENDING_APPROVAL' } }), 'workspace_pending_approval'],
    ['suspended', resolved({ workspace: { ...resolved().workspace, status: 'SUSPENDED' } }), 'workspace_suspended'],
    ['member suspended', resolved({ member: { id: 'm', role: 'owner', status: 'SUSPENDED' } }), 'api_key_owner_inactive'],
    ['member removed', resolved({ member: { id: 'm', role: 'owner', status: 'REMOVED' } }), 'api_key_owner_inactive'],
    ['scope-less outside /v1', resolved({ scopes: [] }), 'api_key_not_scoped'],
    ['missing scope', resolved({ scopes: ['calls.view'] }), 'forbidden'],
    ['viewer cannot edit', resolved({ scopes: ['agents.edit'], member: { id: 'm', role: 'viewer', status: 'ACTIVE' } }), 'forbidden'],
  ])('%s → %s', (_, r, expected) => {
    const access = expected === 'forbidden' && r?.scopes.includes('agents.edit') ? scoped('agents.edit') : scoped('campaigns.view');
    expect(code(() => authorize(hash, r, access, now))).toBe(expected);
  });

  it('an inactive workspace (plan lapsed) still authenticates: its starts are refused later with 402', () => {
    const r = resolved({ workspace: { ...resolved().workspace, status: 'INACTIVE' } });
    expect(code(() => authorize(hash, r, scoped('campaigns.view'), now))).toBe('allowed');
  });

  it('scope-less keys on /v1 are checked against the member role only', () => {
    const viewer = resolved({ scopes: [], member: { id: 'm', role: 'viewer', status: 'ACTIVE' } });
    expect(code(() => authorize(hash, viewer, scoped('campaigns.view', true), now))).toBe('allowed');
    expect(code(() => authorize(hash, viewer, scoped('agents.edit', true), now))).toBe('forbidden');
  });

  it('forbidden names the required permission', () => {
    expect(() => authorize(hash, resolved({ scopes: ['calls.view'] }), scoped('agents.edit'), now)).toThrow(
      expect.objectContaining({ code: 'forbidden', options: expect.objectContaining({ requiredPermission: 'agents.edit' }) }),
    );
  });

  it('human-only actions and feature switches come after the scope check', () => {
    const access: RouteAccess = { ...scoped('campaigns.view'), humanOnly: true };
    expect(code(() => authorize(hash, resolved(), access, now))).toBe('api_key_not_allowed');
    expect(code(() => authorize(hash, resolved({ scopes: ['calls.view'] }), access, now))).toBe('forbidden');
    const feature: RouteAccess = { ...scoped('campaigns.view'), feature: { feature: 'api_results', code: 'api_results_not_enabled' } };
    expect(code(() => authorize(hash, resolved(), feature, now))).toBe('api_results_not_enabled');
    const on = resolved({ workspace: { ...resolved().workspace, features: ['api_results'] } });
    expect(code(() => authorize(hash, on, feature, now))).toBe('allowed');
  });
});
