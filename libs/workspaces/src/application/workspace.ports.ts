import { ApiKey } from '../domain/api-key';
import { Member } from '../domain/member';
import { Workspace } from '../domain/workspace';

export abstract class WorkspaceRepository {
  abstract insert(workspace: Workspace): Promise<void>;
  abstract update(workspace: Workspace): Promise<void>;
  abstract findById(id: string): Promise<Workspace | null>;
}

export abstract class MemberRepository {
  abstract insert(member: Member): Promise<void>;
  abstract update(member: Member): Promise<void>;
  abstract findById(id: string): Promise<Member | null>;
  abstract findOwner(workspaceId: string): Promise<Member | null>;
  /** The workspace's members among `ids` (ids of other workspaces and unknown ids are left out). */
  abstract findAmong(workspaceId: string, ids: readonly string[]): Promise<Member[]>;
}

export interface ApiKeyListing {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  memberId: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

export abstract class ApiKeyRepository {
  abstract insert(key: ApiKey): Promise<void>;
  abstract update(key: ApiKey): Promise<void>;
  abstract findById(id: string): Promise<ApiKey | null>;
  abstract listByWorkspace(workspaceId: string): Promise<ApiKeyListing[]>;
}
