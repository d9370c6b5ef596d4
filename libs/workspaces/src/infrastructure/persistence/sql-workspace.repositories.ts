import { Injectable } from '@nestjs/common';
import { AccessChange, AccessChanges, isUniqueViolation, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { ApiKey } from '../../domain/api-key';
import { Member } from '../../domain/member';
import { Workspace } from '../../domain/workspace';
import { ApiKeyListing, ApiKeyRepository, MemberRepository, WorkspaceRepository } from '../../application/workspace.ports';
import { API_KEYS } from './api-key.table';
import { MEMBERS, MEMBERS_EMAIL_KEY } from './member.table';
import { WORKSPACES } from './workspace.table';

type Row = Record<string, unknown>;

/**
 * Every update of a workspace, member or key may change what an API key grants: it is announced
 * to the API processes' key caches once committed (decisions.md 41.1). Outside a transaction the
 * update has committed already, and the announcement is awaited so a CLI command has published
 * it before it exits.
 */
async function announceCommitted(tx: TransactionHost, changes: AccessChanges, change: AccessChange): Promise<void> {
  if (tx.inTransaction) tx.afterCommit(() => void changes.announce(change));
  else await changes.announce(change);
}

@Injectable()
export class SqlWorkspaceRepository extends WorkspaceRepository {
  constructor(
    private readonly tx: TransactionHost,
    private readonly changes: AccessChanges,
  ) {
    super();
  }

  async insert(workspace: Workspace): Promise<void> {
    const { sql, params } = WORKSPACES.insert(workspace.toProps());
    await this.tx.manager.query(sql, params);
  }

  async update(workspace: Workspace): Promise<void> {
    const { sql, params } = WORKSPACES.update(workspace.toProps(), ['id']);
    await this.tx.manager.query(sql, params);
    await announceCommitted(this.tx, this.changes, { workspaceId: workspace.id });
  }

  async findById(id: string): Promise<Workspace | null> {
    const [row]: Row[] = await this.tx.manager.query(
      `SELECT ${WORKSPACES.select()} FROM ${WORKSPACES.name} WHERE ${WORKSPACES.c.id} = $1`,
      [id],
    );
    return row ? Workspace.restore(WORKSPACES.fromRow(row)) : null;
  }
}

@Injectable()
export class SqlMemberRepository extends MemberRepository {
  constructor(
    private readonly tx: TransactionHost,
    private readonly changes: AccessChanges,
  ) {
    super();
  }

  async insert(member: Member): Promise<void> {
    const { sql, params } = MEMBERS.insert(member.toProps());
    try {
      await this.tx.manager.query(sql, params);
    } catch (error) {
      if (isUniqueViolation(error, MEMBERS_EMAIL_KEY)) {
        throw new AppError('invalid_request', { message: 'a member with this e-mail exists in the workspace' });
      }
      throw error;
    }
  }

  async update(member: Member): Promise<void> {
    const { sql, params } = MEMBERS.update(member.toProps(), ['id']);
    await this.tx.manager.query(sql, params);
    await announceCommitted(this.tx, this.changes, { memberId: member.id });
  }

  async findById(id: string): Promise<Member | null> {
    const [row]: Row[] = await this.tx.manager.query(`SELECT ${MEMBERS.select()} FROM ${MEMBERS.name} WHERE ${MEMBERS.c.id} = $1`, [id]);
    return row ? Member.restore(MEMBERS.fromRow(row)) : null;
  }

  async findOwner(workspaceId: string): Promise<Member | null> {
    const m = MEMBERS.c;
    const [row]: Row[] = await this.tx.manager.query(
      `SELECT ${MEMBERS.select()} FROM ${MEMBERS.name}
        WHERE ${m.workspaceId} = $1 AND ${m.role} = 'owner' ORDER BY ${m.createdAt} LIMIT 1`,
      [workspaceId],
    );
    return row ? Member.restore(MEMBERS.fromRow(row)) : null;
  }

  async findAmong(workspaceId: string, ids: readonly string[]): Promise<Member[]> {
    if (ids.length === 0) return [];
    const m = MEMBERS.c;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${MEMBERS.select()} FROM ${MEMBERS.name} WHERE ${m.workspaceId} = $1 AND ${m.id}::text = ANY($2::text[])`,
      [workspaceId, [...ids]],
    );
    return rows.map((row) => Member.restore(MEMBERS.fromRow(row)));
  }
}

/** What a listing shows of a key: everything but its hash and workspace. */
const LISTING = ['id', 'name', 'prefix', 'scopes', 'memberId', 'expiresAt', 'revokedAt', 'lastUsedAt', 'createdAt'] as const;

@Injectable()
export class SqlApiKeyRepository extends ApiKeyRepository {
  constructor(
    private readonly tx: TransactionHost,
    private readonly changes: AccessChanges,
  ) {
    super();
  }

  async insert(key: ApiKey): Promise<void> {
    const { sql, params } = API_KEYS.insert(key.toProps());
    await this.tx.manager.query(sql, params);
  }

  async update(key: ApiKey): Promise<void> {
    const { sql, params } = API_KEYS.update(key.toProps(), ['id']);
    await this.tx.manager.query(sql, params);
    await announceCommitted(this.tx, this.changes, { keyId: key.id });
  }

  async findById(id: string): Promise<ApiKey | null> {
    const [row]: Row[] = await this.tx.manager.query(`SELECT ${API_KEYS.select()} FROM ${API_KEYS.name} WHERE ${API_KEYS.c.id} = $1`, [id]);
    return row ? ApiKey.restore(API_KEYS.fromRow(row)) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<ApiKeyListing[]> {
    const k = API_KEYS.c;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${API_KEYS.select(undefined, LISTING)} FROM ${API_KEYS.name} WHERE ${k.workspaceId} = $1 ORDER BY ${k.createdAt}, ${k.id}`,
      [workspaceId],
    );
    return rows.map((row) => API_KEYS.fromRow(row, LISTING));
  }
}
