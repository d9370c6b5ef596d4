import { Injectable, Logger } from '@nestjs/common';
import { ApiKeyResolver, ResolvedApiKey, TransactionHost } from '@outreach/platform';
import { API_KEYS } from './api-key.table';
import { MEMBERS } from './member.table';
import { WORKSPACES } from './workspace.table';

const TOUCH_INTERVAL_MS = 60_000;

const KEY = ['id', 'hash', 'revokedAt', 'expiresAt', 'scopes', 'workspaceId', 'memberId'] as const;
const WORKSPACE = ['name', 'status', 'features', 'concurrency', 'rateLimitPerMinute'] as const;
const MEMBER = ['role', 'status'] as const;

/** Key, workspace and member in one query on the unique index of `key_hash`; columns prefixed per table. */
const RESOLVE_SQL = `
  SELECT ${API_KEYS.select('k', KEY, 'k_')}, ${WORKSPACES.select('w', WORKSPACE, 'w_')}, ${MEMBERS.select('m', MEMBER, 'm_')}
    FROM ${API_KEYS.name} k
    JOIN ${WORKSPACES.name} w ON w.${WORKSPACES.c.id} = k.${API_KEYS.c.workspaceId}
    JOIN ${MEMBERS.name} m ON m.${MEMBERS.c.id} = k.${API_KEYS.c.memberId}
   WHERE k.${API_KEYS.c.hash} = $1`;

const TOUCH_SQL = `UPDATE ${API_KEYS.name} SET ${API_KEYS.c.lastUsedAt} = now() WHERE ${API_KEYS.c.id} = $1`;

/** One indexed query per request: key, its workspace and its acting member. */
@Injectable()
export class SqlApiKeyResolver extends ApiKeyResolver {
  private readonly logger = new Logger('ApiKeys');
  private readonly lastTouched = new Map<string, number>();

  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async resolveByHash(hash: Buffer): Promise<ResolvedApiKey | null> {
    const [row]: Array<Record<string, unknown>> = await this.tx.manager.query(RESOLVE_SQL, [hash]);
    if (!row) return null;
    const key = API_KEYS.fromRow(row, KEY, 'k_');
    const workspace = WORKSPACES.fromRow(row, WORKSPACE, 'w_');
    const member = MEMBERS.fromRow(row, MEMBER, 'm_');
    return {
      keyId: key.id,
      keyHash: key.hash,
      revoked: key.revokedAt !== null,
      expiresAt: key.expiresAt,
      scopes: key.scopes,
      workspace: { id: key.workspaceId, ...workspace },
      member: { id: key.memberId, ...member },
    };
  }

  touch(keyId: string): void {
    const now = Date.now();
    if (now - (this.lastTouched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
    this.lastTouched.set(keyId, now);
    if (this.lastTouched.size > 10_000) this.lastTouched.clear();
    this.tx.manager
      .query(TOUCH_SQL, [keyId])
      .catch((err: Error) => this.logger.debug(`last_used_at not updated: ${err.message}`));
  }
}
