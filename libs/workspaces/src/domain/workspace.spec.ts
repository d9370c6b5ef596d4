import { AppError } from '@outreach/core';
import { ApiKey } from './api-key';
import { Member } from './member';
import { Workspace } from './workspace';

const now = new Date('2026-11-21T00:00:00Z');
const create = (over: Partial<Parameters<typeof Workspace.create>[0]> = {}) =>
  Workspace.create({ id: 'w1', name: 'Acme', concurrency: 10, agentQuota: 50, currency: 'USD', now, ...over });

describe('Workspace', () => {
  it('starts ACTIVE with the given settings', () => {
    const w = create({ features: ['api_results', '+workflows'] }).toProps();
    expect(w).toMatchObject({ status: 'ACTIVE', name: 'Acme', concurrency: 10, features: ['api_results', 'workflows'] });
  });

  it('toggles features with +/- and refuses unknown ones', () => {
    const w = create({ features: ['api_results'] });
    w.update({ featureChanges: ['-api_results', '+crm', 'email'] }, now);
    expect(w.toProps().features).toEqual(['email', 'crm']);
    expect(() => w.update({ featureChanges: ['+teleport'] }, now)).toThrow(AppError);
    expect(w.toProps().features).toEqual(['email', 'crm']);
  });

  it('validates settings and reports all problems at once', () => {
    const w = create();
    expect(() => w.update({ concurrency: 0, currency: 'usd', name: '' }, now)).toThrow(/concurrency.*currency|name.*concurrency/);
  });

  it('applies every change or none: one invalid setting leaves the valid ones unapplied', () => {
    const w = create();
    const before = w.toProps();
    expect(() => w.update({ name: 'Renamed', concurrency: 7, featureChanges: ['+crm'], currency: 'usd' }, new Date(now.getTime() + 1000))).toThrow(/currency/);
    expect(w.toProps()).toEqual(before);
  });

  it('a deleted workspace stays deleted; unknown statuses are refused', () => {
    const w = create();
    expect(() => w.setStatus('ASLEEP', now)).toThrow(AppError);
    w.setStatus('DELETED', now);
    expect(() => w.setStatus('ACTIVE', now)).toThrow(/deleted/);
    expect(w.isDeleted).toBe(true);
  });
});

describe('Member', () => {
  it('normalises the e-mail and defaults to viewer', () => {
    const m = Member.create({ id: 'm', workspaceId: 'w', email: ' Ann@Example.COM ', now }).toProps();
    expect(m).toMatchObject({ email: 'ann@example.com', role: 'viewer', status: 'ACTIVE' });
  });

  it('refuses bad e-mails, roles and statuses', () => {
    expect(() => Member.create({ id: 'm', workspaceId: 'w', email: 'nope', now })).toThrow(AppError);
    expect(() => Member.create({ id: 'm', workspaceId: 'w', email: 'a@b.co', role: 'god', now })).toThrow(AppError);
    const m = Member.create({ id: 'm', workspaceId: 'w', email: 'a@b.co', now });
    expect(() => m.setStatus('ON_HOLIDAY')).toThrow(AppError);
    m.setStatus('SUSPENDED');
    expect(m.isActive).toBe(false);
  });
});

describe('ApiKey', () => {
  const issue = (over: Partial<Parameters<typeof ApiKey.issue>[0]> = {}) =>
    ApiKey.issue({
      id: 'k',
      workspaceId: 'w',
      memberId: 'm',
      name: 'ci',
      prefix: 'pk_live_abcd',
      hash: Buffer.alloc(32),
      scopes: ['campaigns.view', 'agents.edit', 'campaigns.view'],
      expiresAt: null,
      now,
      ...over,
    });

  it('keeps scopes unique and sorted', () => {
    expect(issue().toProps().scopes).toEqual(['agents.edit', 'campaigns.view']);
  });

  it('refuses unknown scopes, past expiry and empty names', () => {
    expect(() => issue({ scopes: ['campaigns.delete'] })).toThrow(/unknown scopes/);
    expect(() => issue({ expiresAt: new Date(now.getTime() - 1000) })).toThrow(/future/);
    expect(() => issue({ name: '  ' })).toThrow(AppError);
  });

  it('revoking twice keeps the first time', () => {
    const k = issue();
    k.revoke(now);
    k.revoke(new Date(now.getTime() + 5000));
    expect(k.toProps().revokedAt).toEqual(now);
  });
});
