import { FixedClock } from '../../../platform/src/testing';
import { InMemoryMemberRepository, InMemoryWorkspaceRepository, seedMember, seedWorkspace } from '../testing';
import { MemberAdministration } from './member-administration';

/* MemberAdministration over in-memory repositories. */

const T0 = new Date('2026-03-01T09:00:00Z');
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('MemberAdministration', () => {
  let workspaces: InMemoryWorkspaceRepository;
  let members: InMemoryMemberRepository;
  let admin: MemberAdministration;

  beforeEach(() => {
    workspaces = new InMemoryWorkspaceRepository();
    members = new InMemoryMemberRepository();
    admin = new MemberAdministration(workspaces, members, new FixedClock(T0));
  });

  describe('add', () => {
    it('stores an ACTIVE member with a normalised address, viewer by default', async () => {
      const w = await seedWorkspace(workspaces);
      const view = await admin.add({ workspaceId: w.id, email: ' Ann@Example.COM ' });
      expect(view).toMatchObject({ workspaceId: w.id, email: 'ann@example.com', role: 'viewer', status: 'ACTIVE', createdAt: T0.toISOString() });
      expect(members.rows.get(view.id)).toMatchObject({ email: 'ann@example.com', role: 'viewer' });
    });

    it('keeps the role it is given', async () => {
      const w = await seedWorkspace(workspaces);
      await expect(admin.add({ workspaceId: w.id, email: 'a@b.co', role: 'admin' })).resolves.toMatchObject({ role: 'admin' });
    });

    it('not_found for an unknown or malformed workspace id', async () => {
      await expect(admin.add({ workspaceId: UNKNOWN, email: 'a@b.co' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(admin.add({ workspaceId: 'acme', email: 'a@b.co' })).rejects.toMatchObject({ code: 'not_found' });
      expect(members.rows.size).toBe(0);
    });

    it('refuses a bad address or role (invalid_request) and stores nothing', async () => {
      const w = await seedWorkspace(workspaces);
      await expect(admin.add({ workspaceId: w.id, email: 'nope' })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(admin.add({ workspaceId: w.id, email: 'a@b.co', role: 'god' })).rejects.toMatchObject({ code: 'invalid_request' });
      expect(members.rows.size).toBe(0);
    });
  });

  describe('setStatus', () => {
    it('stores the new status', async () => {
      const w = await seedWorkspace(workspaces);
      const m = await seedMember(members, { workspaceId: w.id });
      await expect(admin.setStatus(m.id, 'SUSPENDED')).resolves.toMatchObject({ id: m.id, status: 'SUSPENDED' });
      expect(members.rows.get(m.id)!.status).toBe('SUSPENDED');
    });

    it('refuses an unknown status (invalid_request) and keeps the stored one', async () => {
      const w = await seedWorkspace(workspaces);
      const m = await seedMember(members, { workspaceId: w.id });
      await expect(admin.setStatus(m.id, 'ON_HOLIDAY')).rejects.toMatchObject({ code: 'invalid_request' });
      expect(members.rows.get(m.id)!.status).toBe('ACTIVE');
    });

    it('not_found for an unknown or malformed member id', async () => {
      await expect(admin.setStatus(UNKNOWN, 'ACTIVE')).rejects.toMatchObject({ code: 'not_found' });
      await expect(admin.setStatus('m1', 'ACTIVE')).rejects.toMatchObject({ code: 'not_found' });
    });
  });
});
