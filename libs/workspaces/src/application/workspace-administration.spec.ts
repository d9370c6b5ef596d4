import { FixedClock } from '../../../platform/src/testing';
import { inMemoryWorkspaceAdministration, seedWorkspace, testAppConfig } from '../testing';

/* WorkspaceAdministration over in-memory repositories: no Nest, no database. */

const T0 = new Date('2026-03-01T09:00:00Z');
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('WorkspaceAdministration', () => {
  let clock: FixedClock;
  let env: ReturnType<typeof inMemoryWorkspaceAdministration>;

  beforeEach(() => {
    clock = new FixedClock(T0);
    env = inMemoryWorkspaceAdministration({
      clock,
      config: testAppConfig({ defaultConcurrency: 7, defaultAgentQuota: 3, defaultCurrency: 'EUR' }),
    });
  });

  describe('create', () => {
    it('stores the workspace and its owner in one unit of work, with the configured defaults', async () => {
      const { workspace, ownerMemberId } = await env.administration.create({ name: ' Acme ', ownerEmail: 'Boss@Acme.io' });

      expect(workspace).toMatchObject({ name: 'Acme', status: 'ACTIVE', concurrency: 7, agentQuota: 3, currency: 'EUR', features: [] });
      expect(workspace.createdAt).toBe(T0.toISOString());
      expect(env.uow.runs).toBe(1);
      expect(env.workspaces.rows.get(workspace.id)).toMatchObject({ name: 'Acme', agentQuota: 3 });
      expect(env.members.rows.get(ownerMemberId)).toMatchObject({ workspaceId: workspace.id, role: 'owner', email: 'boss@acme.io' });
    });

    it('takes the given settings over the defaults, and invents an owner address when none is sent', async () => {
      const { workspace, ownerMemberId } = await env.administration.create({
        name: 'Beta',
        status: 'PENDING_APPROVAL',
        concurrency: 2,
        agentQuota: 9,
        features: ['crm', '+email'],
        currency: 'GBP',
      });
      expect(workspace).toMatchObject({ status: 'PENDING_APPROVAL', concurrency: 2, agentQuota: 9, currency: 'GBP', features: ['email', 'crm'] });
      expect(env.members.rows.get(ownerMemberId)!.email).toBe(`owner+${workspace.id.slice(0, 8)}@workspace.invalid`);
    });

    it('refuses invalid settings (invalid_request) and stores nothing', async () => {
      await expect(env.administration.create({ name: 'Acme', currency: 'usd' })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(env.administration.create({ name: 'Acme', status: 'ASLEEP' })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(env.administration.create({ name: 'Acme', ownerEmail: 'not-an-address' })).rejects.toMatchObject({ code: 'invalid_request' });
      expect(env.workspaces.rows.size).toBe(0);
      expect(env.members.rows.size).toBe(0);
    });
  });

  describe('get', () => {
    it('returns the workspace view', async () => {
      const w = await seedWorkspace(env.workspaces, { name: 'Acme', agentQuota: 4, trialUntil: new Date('2026-04-01T00:00:00Z') });
      await expect(env.administration.get(w.id)).resolves.toMatchObject({
        id: w.id,
        name: 'Acme',
        agentQuota: 4,
        trialUntil: '2026-04-01T00:00:00.000Z',
      });
    });

    it('not_found for an unknown or malformed id', async () => {
      await expect(env.administration.get(UNKNOWN)).rejects.toMatchObject({ code: 'not_found' });
      await expect(env.administration.get('w1')).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('setStatus', () => {
    it('stores the new status and time', async () => {
      const w = await seedWorkspace(env.workspaces);
      clock.advance(60_000);
      const view = await env.administration.setStatus(w.id, 'SUSPENDED');
      expect(view).toMatchObject({ status: 'SUSPENDED', updatedAt: '2026-03-01T09:01:00.000Z' });
      expect(env.workspaces.rows.get(w.id)!.status).toBe('SUSPENDED');
    });

    it('refuses an unknown status and reactivating a deleted workspace (invalid_request), storing nothing', async () => {
      const w = await seedWorkspace(env.workspaces);
      await expect(env.administration.setStatus(w.id, 'ASLEEP')).rejects.toMatchObject({ code: 'invalid_request' });
      expect(env.workspaces.rows.get(w.id)!.status).toBe('ACTIVE');
      await env.administration.setStatus(w.id, 'DELETED');
      await expect(env.administration.setStatus(w.id, 'ACTIVE')).rejects.toMatchObject({ code: 'invalid_request' });
      expect(env.workspaces.rows.get(w.id)!.status).toBe('DELETED');
    });

    it('not_found for an unknown workspace', async () => {
      await expect(env.administration.setStatus(UNKNOWN, 'ACTIVE')).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('update', () => {
    it('stores the changed settings', async () => {
      const w = await seedWorkspace(env.workspaces, { features: ['crm'] });
      const view = await env.administration.update(w.id, { agentQuota: 12, featureChanges: ['-crm', '+inbound'], rateLimitPerMinute: 30 });
      expect(view).toMatchObject({ agentQuota: 12, features: ['inbound'], rateLimitPerMinute: 30 });
      expect(env.workspaces.rows.get(w.id)).toMatchObject({ agentQuota: 12, features: ['inbound'], rateLimitPerMinute: 30 });
    });

    it('refuses invalid settings (invalid_request) and leaves the stored workspace as it was', async () => {
      const w = await seedWorkspace(env.workspaces, { name: 'Acme', concurrency: 10 });
      await expect(env.administration.update(w.id, { name: 'Renamed', concurrency: 0 })).rejects.toMatchObject({ code: 'invalid_request' });
      expect(env.workspaces.rows.get(w.id)).toMatchObject({ name: 'Acme', concurrency: 10 });
    });

    it('not_found for an unknown workspace', async () => {
      await expect(env.administration.update(UNKNOWN, { name: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    });
  });
});
