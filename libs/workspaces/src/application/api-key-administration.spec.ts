import { displayPrefix, hashApiKey, isWellFormedApiKey } from '@outreach/platform';
import { FixedClock } from '../../../platform/src/testing';
import { InMemoryApiKeyRepository, InMemoryMemberRepository, InMemoryWorkspaceRepository, seedMember, seedWorkspace } from '../testing';
import { ApiKeyAdministration } from './api-key-administration';

/* ApiKeyAdministration over in-memory repositories: the secret is returned once, only its hash stored. */

const T0 = new Date('2026-03-01T09:00:00Z');
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('ApiKeyAdministration', () => {
  let clock: FixedClock;
  let workspaces: InMemoryWorkspaceRepository;
  let members: InMemoryMemberRepository;
  let keys: InMemoryApiKeyRepository;
  let admin: ApiKeyAdministration;

  beforeEach(() => {
    clock = new FixedClock(T0);
    workspaces = new InMemoryWorkspaceRepository();
    members = new InMemoryMemberRepository();
    keys = new InMemoryApiKeyRepository();
    admin = new ApiKeyAdministration(workspaces, members, keys, clock);
  });

  async function workspaceWithOwner() {
    const w = await seedWorkspace(workspaces);
    const owner = await seedMember(members, { workspaceId: w.id, role: 'owner' });
    return { w, owner };
  }

  describe('create', () => {
    it("issues a key for the workspace's owner: the secret once, its hash and prefix stored", async () => {
      const { w, owner } = await workspaceWithOwner();
      const issued = await admin.create({ workspaceId: w.id, name: 'ci', scopes: ['campaigns.view', 'agents.edit'] });

      expect(isWellFormedApiKey(issued.key)).toBe(true);
      expect(issued).toMatchObject({ workspaceId: w.id, memberId: owner.id, prefix: displayPrefix(issued.key), scopes: ['agents.edit', 'campaigns.view'], expiresAt: null });
      const stored = keys.rows.get(issued.id)!;
      expect(stored.hash.equals(hashApiKey(issued.key))).toBe(true);
      expect(stored).toMatchObject({ name: 'ci', memberId: owner.id, revokedAt: null, createdAt: T0 });
      expect(JSON.stringify({ ...stored, hash: undefined })).not.toContain(issued.key);
    });

    it('acts for the named member and keeps the expiry', async () => {
      const { w } = await workspaceWithOwner();
      const viewer = await seedMember(members, { workspaceId: w.id });
      const expiresAt = new Date('2026-06-01T00:00:00Z');
      const issued = await admin.create({ workspaceId: w.id, name: 'viewer key', memberId: viewer.id, expiresAt });
      expect(issued).toMatchObject({ memberId: viewer.id, scopes: [], expiresAt: '2026-06-01T00:00:00.000Z' });
    });

    it('two keys never share a secret', async () => {
      const { w } = await workspaceWithOwner();
      const a = await admin.create({ workspaceId: w.id, name: 'a' });
      const b = await admin.create({ workspaceId: w.id, name: 'b' });
      expect(a.key).not.toBe(b.key);
      expect(keys.rows.size).toBe(2);
    });

    it('not_found for an unknown, malformed or deleted workspace', async () => {
      await workspaceWithOwner();
      await expect(admin.create({ workspaceId: UNKNOWN, name: 'k' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(admin.create({ workspaceId: 'acme', name: 'k' })).rejects.toMatchObject({ code: 'not_found' });
      const deleted = await seedWorkspace(workspaces, { status: 'DELETED' });
      await seedMember(members, { workspaceId: deleted.id, role: 'owner' });
      await expect(admin.create({ workspaceId: deleted.id, name: 'k' })).rejects.toMatchObject({ code: 'not_found' });
      expect(keys.rows.size).toBe(0);
    });

    it("not_found for a member of another workspace, an unknown member, or a workspace without owner", async () => {
      const { w } = await workspaceWithOwner();
      const other = await seedWorkspace(workspaces);
      const stranger = await seedMember(members, { workspaceId: other.id, role: 'owner' });
      await expect(admin.create({ workspaceId: w.id, name: 'k', memberId: stranger.id })).rejects.toMatchObject({ code: 'not_found' });
      await expect(admin.create({ workspaceId: w.id, name: 'k', memberId: UNKNOWN })).rejects.toMatchObject({ code: 'not_found' });
      await expect(admin.create({ workspaceId: w.id, name: 'k', memberId: 'm1' })).rejects.toMatchObject({ code: 'not_found' });
      const ownerless = await seedWorkspace(workspaces);
      await expect(admin.create({ workspaceId: ownerless.id, name: 'k' })).rejects.toMatchObject({ code: 'not_found' });
      expect(keys.rows.size).toBe(0);
    });

    it('refuses unknown scopes, a past expiry and an empty name (invalid_request)', async () => {
      const { w } = await workspaceWithOwner();
      await expect(admin.create({ workspaceId: w.id, name: 'k', scopes: ['campaigns.delete'] })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(admin.create({ workspaceId: w.id, name: 'k', expiresAt: new Date(T0.getTime() - 1) })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(admin.create({ workspaceId: w.id, name: '  ' })).rejects.toMatchObject({ code: 'invalid_request' });
      expect(keys.rows.size).toBe(0);
    });
  });

  describe('revoke', () => {
    it('stores the revocation time; revoking again keeps the first', async () => {
      const { w } = await workspaceWithOwner();
      const issued = await admin.create({ workspaceId: w.id, name: 'k' });
      clock.advance(1000);
      await expect(admin.revoke(issued.id)).resolves.toEqual({ id: issued.id, revokedAt: '2026-03-01T09:00:01.000Z' });
      clock.advance(1000);
      await expect(admin.revoke(issued.id)).resolves.toEqual({ id: issued.id, revokedAt: '2026-03-01T09:00:01.000Z' });
      expect(keys.rows.get(issued.id)!.revokedAt).toEqual(new Date('2026-03-01T09:00:01.000Z'));
    });

    it('not_found for an unknown or malformed key id', async () => {
      await expect(admin.revoke(UNKNOWN)).rejects.toMatchObject({ code: 'not_found' });
      await expect(admin.revoke('key')).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('list', () => {
    it("lists the workspace's keys only, without secrets or hashes", async () => {
      const { w } = await workspaceWithOwner();
      const other = await seedWorkspace(workspaces);
      await seedMember(members, { workspaceId: other.id, role: 'owner' });
      const mine = await admin.create({ workspaceId: w.id, name: 'mine' });
      await admin.create({ workspaceId: other.id, name: 'theirs' });

      const listed = await admin.list(w.id);
      expect(listed.map((k) => k.name)).toEqual(['mine']);
      expect(listed[0]).toMatchObject({ id: mine.id, prefix: mine.prefix });
      expect(listed[0]).not.toHaveProperty('hash');
    });

    it('not_found for an unknown or malformed workspace', async () => {
      await expect(admin.list(UNKNOWN)).rejects.toMatchObject({ code: 'not_found' });
      await expect(admin.list('acme')).rejects.toMatchObject({ code: 'not_found' });
    });
  });
});
