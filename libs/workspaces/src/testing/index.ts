// In-memory fakes of the workspaces module's ports, for use-case specs (the middle test tier):
// no Nest container, no database. Other modules' specs and fakes import this file by relative
// path; production code never does (a dependency rule enforces it).
import { randomUUID } from 'node:crypto';
import { AppConfig, AppConfigValues, loadConfig } from '@outreach/core';
import { Clock } from '@outreach/core';
import { FixedClock, RollbackUnitOfWork } from '../../../platform/src/testing';
import { MemberAdministration } from '../application/member-administration';
import { WorkspaceAdministration } from '../application/workspace-administration';
import { ApiKeyListing, ApiKeyRepository, MemberRepository, WorkspaceRepository } from '../application/workspace.ports';
import { ApiKey, ApiKeyProps } from '../domain/api-key';
import { Member, MemberProps } from '../domain/member';
import { Workspace, WorkspaceProps, WorkspaceStatus } from '../domain/workspace';

/** The configuration defaults (no environment read), with the given values overridden. */
export function testAppConfig(overrides: Partial<AppConfigValues> = {}): AppConfig {
  return Object.assign(loadConfig({}), overrides);
}

/** Workspaces by id; stores copies, so an aggregate changed but not saved stays unsaved. */
export class InMemoryWorkspaceRepository extends WorkspaceRepository {
  readonly rows = new Map<string, WorkspaceProps>();

  async insert(workspace: Workspace): Promise<void> {
    if (this.rows.has(workspace.id)) throw new Error(`workspace ${workspace.id} exists`);
    this.rows.set(workspace.id, workspace.toProps());
  }

  async update(workspace: Workspace): Promise<void> {
    if (!this.rows.has(workspace.id)) throw new Error(`no workspace ${workspace.id} to update`);
    this.rows.set(workspace.id, workspace.toProps());
  }

  async findById(id: string): Promise<Workspace | null> {
    const props = this.rows.get(id);
    return props ? Workspace.restore(props) : null;
  }
}

export class InMemoryMemberRepository extends MemberRepository {
  readonly rows = new Map<string, MemberProps>();

  async insert(member: Member): Promise<void> {
    if (this.rows.has(member.id)) throw new Error(`member ${member.id} exists`);
    this.rows.set(member.id, member.toProps());
  }

  async update(member: Member): Promise<void> {
    if (!this.rows.has(member.id)) throw new Error(`no member ${member.id} to update`);
    this.rows.set(member.id, member.toProps());
  }

  async findById(id: string): Promise<Member | null> {
    const props = this.rows.get(id);
    return props ? Member.restore(props) : null;
  }

  /** The workspace's first owner (by createdAt), like the table. */
  async findOwner(workspaceId: string): Promise<Member | null> {
    const owner = [...this.rows.values()]
      .filter((m) => m.workspaceId === workspaceId && m.role === 'owner')
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
    return owner ? Member.restore(owner) : null;
  }

  async findAmong(workspaceId: string, ids: readonly string[]): Promise<Member[]> {
    return ids.flatMap((id) => {
      const props = this.rows.get(id);
      return props && props.workspaceId === workspaceId ? [Member.restore(props)] : [];
    });
  }
}

export class InMemoryApiKeyRepository extends ApiKeyRepository {
  readonly rows = new Map<string, ApiKeyProps>();

  async insert(key: ApiKey): Promise<void> {
    if (this.rows.has(key.id)) throw new Error(`API key ${key.id} exists`);
    this.rows.set(key.id, key.toProps());
  }

  async update(key: ApiKey): Promise<void> {
    if (!this.rows.has(key.id)) throw new Error(`no API key ${key.id} to update`);
    this.rows.set(key.id, key.toProps());
  }

  async findById(id: string): Promise<ApiKey | null> {
    const props = this.rows.get(id);
    return props ? ApiKey.restore(props) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<ApiKeyListing[]> {
    return [...this.rows.values()]
      .filter((k) => k.workspaceId === workspaceId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map(({ id, name, prefix, scopes, memberId, expiresAt, revokedAt, lastUsedAt, createdAt }) => ({
        id,
        name,
        prefix,
        scopes: [...scopes],
        memberId,
        expiresAt,
        revokedAt,
        lastUsedAt,
        createdAt,
      }));
  }
}

export interface SeedWorkspace {
  id?: string;
  name?: string;
  status?: WorkspaceStatus;
  concurrency?: number;
  agentQuota?: number;
  features?: string[];
  currency?: string;
  trialUntil?: Date | null;
  now?: Date;
}

/** Stores a workspace built through the aggregate (so it is valid) and returns it. */
export async function seedWorkspace(repo: InMemoryWorkspaceRepository, seed: SeedWorkspace = {}): Promise<Workspace> {
  const now = seed.now ?? new Date('2026-01-01T00:00:00Z');
  const workspace = Workspace.create({
    id: seed.id ?? randomUUID(),
    name: seed.name ?? 'Acme',
    status: seed.status,
    concurrency: seed.concurrency ?? 10,
    agentQuota: seed.agentQuota ?? 50,
    features: seed.features,
    currency: seed.currency ?? 'USD',
    now,
  });
  if (seed.trialUntil !== undefined) workspace.update({ trialUntil: seed.trialUntil }, now);
  await repo.insert(workspace);
  return workspace;
}

/** Stores a member built through the aggregate and returns it. */
export async function seedMember(
  repo: InMemoryMemberRepository,
  seed: { workspaceId: string; id?: string; email?: string; role?: string; now?: Date },
): Promise<Member> {
  const member = Member.create({
    id: seed.id ?? randomUUID(),
    workspaceId: seed.workspaceId,
    email: seed.email ?? `${randomUUID().slice(0, 8)}@example.com`,
    role: seed.role,
    now: seed.now ?? new Date('2026-01-01T00:00:00Z'),
  });
  await repo.insert(member);
  return member;
}

/**
 * The real WorkspaceAdministration over in-memory repositories: what other modules (agents'
 * quota, billing's wallets) read through it, seeded with `seedWorkspace(workspaces, …)`.
 */
export function inMemoryWorkspaceAdministration(options: { clock?: Clock; config?: AppConfig } = {}): {
  administration: WorkspaceAdministration;
  workspaces: InMemoryWorkspaceRepository;
  members: InMemoryMemberRepository;
  uow: RollbackUnitOfWork;
} {
  const workspaces = new InMemoryWorkspaceRepository();
  const members = new InMemoryMemberRepository();
  const uow = new RollbackUnitOfWork();
  const administration = new WorkspaceAdministration(
    workspaces,
    members,
    uow,
    options.clock ?? new FixedClock(new Date('2026-01-01T00:00:00Z')),
    options.config ?? testAppConfig(),
  );
  return { administration, workspaces, members, uow };
}

/** The real MemberAdministration (a MemberDirectory) over in-memory members, seeded with `seedMember(members, …)`. */
export function inMemoryMemberDirectory(clock: Clock = new FixedClock(new Date('2026-01-01T00:00:00Z'))): {
  directory: MemberAdministration;
  members: InMemoryMemberRepository;
} {
  const members = new InMemoryMemberRepository();
  return { directory: new MemberAdministration(new InMemoryWorkspaceRepository(), members, clock), members };
}

export * from './stub-workspace-administration';
