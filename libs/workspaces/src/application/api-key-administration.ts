import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { displayPrefix, generateApiKey, hashApiKey } from '@outreach/platform';
import { AppError, Clock, isUuid } from '@outreach/core';
import { ApiKey } from '../domain/api-key';
import { ApiKeyListing, ApiKeyRepository, MemberRepository, WorkspaceRepository } from './workspace.ports';

export interface IssuedApiKey {
  id: string;
  /** The secret; shown this once and never again. */
  key: string;
  prefix: string;
  scopes: string[];
  workspaceId: string;
  memberId: string;
  expiresAt: string | null;
}

/** Operator actions on API keys: issue (the secret is returned once), revoke, list. */
@Injectable()
export class ApiKeyAdministration {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly members: MemberRepository,
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  async create(input: {
    workspaceId: string;
    name: string;
    scopes?: string[];
    memberId?: string;
    expiresAt?: Date | null;
  }): Promise<IssuedApiKey> {
    const workspace = isUuid(input.workspaceId) ? await this.workspaces.findById(input.workspaceId) : null;
    if (!workspace || workspace.isDeleted) throw new AppError('not_found', { message: `no workspace ${input.workspaceId}` });

    const member = input.memberId
      ? isUuid(input.memberId)
        ? await this.members.findById(input.memberId)
        : null
      : await this.members.findOwner(workspace.id);
    if (!member || member.workspaceId !== workspace.id) {
      throw new AppError('not_found', { message: `no member ${input.memberId ?? '(owner)'} in workspace ${workspace.id}` });
    }

    const secret = generateApiKey();
    const key = ApiKey.issue({
      id: randomUUID(),
      workspaceId: workspace.id,
      memberId: member.id,
      name: input.name,
      prefix: displayPrefix(secret),
      hash: hashApiKey(secret),
      scopes: input.scopes ?? [],
      expiresAt: input.expiresAt ?? null,
      now: this.clock.now(),
    });
    await this.keys.insert(key);
    const props = key.toProps();
    return {
      id: props.id,
      key: secret,
      prefix: props.prefix,
      scopes: props.scopes,
      workspaceId: props.workspaceId,
      memberId: props.memberId,
      expiresAt: props.expiresAt ? props.expiresAt.toISOString() : null,
    };
  }

  async revoke(keyId: string): Promise<{ id: string; revokedAt: string }> {
    const key = isUuid(keyId) ? await this.keys.findById(keyId) : null;
    if (!key) throw new AppError('not_found', { message: `no API key ${keyId}` });
    key.revoke(this.clock.now());
    await this.keys.update(key);
    return { id: key.id, revokedAt: key.toProps().revokedAt!.toISOString() };
  }

  async list(workspaceId: string): Promise<ApiKeyListing[]> {
    if (!isUuid(workspaceId) || !(await this.workspaces.findById(workspaceId))) {
      throw new AppError('not_found', { message: `no workspace ${workspaceId}` });
    }
    return this.keys.listByWorkspace(workspaceId);
  }
}
