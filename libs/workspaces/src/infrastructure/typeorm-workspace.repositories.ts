import { Injectable } from '@nestjs/common';
import { isUniqueViolation, TransactionHost } from '@outreach/platform';
import { AppError, MemberRole, Scope } from '@outreach/core';
import { ApiKey } from '../domain/api-key';
import { Member, MemberStatus } from '../domain/member';
import { Workspace, WorkspaceFeature, WorkspaceStatus } from '../domain/workspace';
import { ApiKeyListing, ApiKeyRepository, MemberRepository, WorkspaceRepository } from '../application/workspace.ports';
import { ApiKeyEntity, MemberEntity, WorkspaceEntity } from './workspace.typeorm-entities';

@Injectable()
export class TypeormWorkspaceRepository extends WorkspaceRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  private get repo() {
    return this.tx.manager.getRepository(WorkspaceEntity);
  }

  async insert(workspace: Workspace): Promise<void> {
    await this.repo.insert(workspace.toProps());
  }

  async update(workspace: Workspace): Promise<void> {
    const { id, ...rest } = workspace.toProps();
    await this.repo.update({ id }, rest);
  }

  async findById(id: string): Promise<Workspace | null> {
    const row = await this.repo.findOneBy({ id });
    return row
      ? Workspace.restore({ ...row, status: row.status as WorkspaceStatus, features: row.features as WorkspaceFeature[] })
      : null;
  }
}

@Injectable()
export class TypeormMemberRepository extends MemberRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  private get repo() {
    return this.tx.manager.getRepository(MemberEntity);
  }

  private toDomain(row: MemberEntity): Member {
    return Member.restore({ ...row, role: row.role as MemberRole, status: row.status as MemberStatus });
  }

  async insert(member: Member): Promise<void> {
    try {
      await this.repo.insert(member.toProps());
    } catch (error) {
      if (isUniqueViolation(error, 'members_workspace_email_key')) {
        throw new AppError('invalid_request', { message: 'a member with this e-mail exists in the workspace' });
      }
      throw error;
    }
  }

  async update(member: Member): Promise<void> {
    const { id, ...rest } = member.toProps();
    await this.repo.update({ id }, rest);
  }

  async findById(id: string): Promise<Member | null> {
    const row = await this.repo.findOneBy({ id });
    return row ? this.toDomain(row) : null;
  }

  async findOwner(workspaceId: string): Promise<Member | null> {
    const row = await this.repo.findOne({ where: { workspaceId, role: 'owner' }, order: { createdAt: 'ASC' } });
    return row ? this.toDomain(row) : null;
  }
}

@Injectable()
export class TypeormApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  private get repo() {
    return this.tx.manager.getRepository(ApiKeyEntity);
  }

  async insert(key: ApiKey): Promise<void> {
    const { hash, ...rest } = key.toProps();
    await this.repo.insert({ ...rest, keyHash: hash });
  }

  async update(key: ApiKey): Promise<void> {
    const { id, hash, ...rest } = key.toProps();
    await this.repo.update({ id }, { ...rest, keyHash: hash });
  }

  async findById(id: string): Promise<ApiKey | null> {
    const row = await this.repo.findOneBy({ id });
    if (!row) return null;
    const { keyHash, ...rest } = row;
    return ApiKey.restore({ ...rest, hash: keyHash, scopes: row.scopes as Scope[] });
  }

  async listByWorkspace(workspaceId: string): Promise<ApiKeyListing[]> {
    const rows = await this.repo.find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(({ keyHash: _hash, workspaceId: _ws, ...listing }) => listing);
  }
}
