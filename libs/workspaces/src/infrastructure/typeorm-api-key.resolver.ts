import { Injectable, Logger } from '@nestjs/common';
import { ApiKeyResolver, ResolvedApiKey, TransactionHost } from '@outreach/platform';
import { MemberRole, Scope } from '@outreach/core';

const TOUCH_INTERVAL_MS = 60_000;

/** One indexed query per request: key, its workspace and its acting member. */
@Injectable()
export class TypeormApiKeyResolver extends ApiKeyResolver {
  private readonly logger = new Logger('ApiKeys');
  private readonly lastTouched = new Map<string, number>();

  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async resolveByHash(hash: Buffer): Promise<ResolvedApiKey | null> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT k.id AS key_id, k.key_hash, k.revoked_at, k.expires_at, k.scopes,
              w.id AS workspace_id, w.name AS workspace_name, w.status AS workspace_status,
              w.features, w.concurrency, w.rate_limit_per_minute,
              m.id AS member_id, m.role AS member_role, m.status AS member_status
         FROM api_keys k
         JOIN workspaces w ON w.id = k.workspace_id
         JOIN members m ON m.id = k.member_id
        WHERE k.key_hash = $1`,
      [hash],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      keyId: r.key_id as string,
      keyHash: r.key_hash as Buffer,
      revoked: r.revoked_at !== null,
      expiresAt: (r.expires_at as Date | null) ?? null,
      scopes: r.scopes as Scope[],
      workspace: {
        id: r.workspace_id as string,
        name: r.workspace_name as string,
        status: r.workspace_status as ResolvedApiKey['workspace']['status'],
        features: r.features as string[],
        concurrency: r.concurrency as number,
        rateLimitPerMinute: (r.rate_limit_per_minute as number | null) ?? null,
      },
      member: {
        id: r.member_id as string,
        role: r.member_role as MemberRole,
        status: r.member_status as ResolvedApiKey['member']['status'],
      },
    };
  }

  touch(keyId: string): void {
    const now = Date.now();
    if (now - (this.lastTouched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
    this.lastTouched.set(keyId, now);
    if (this.lastTouched.size > 10_000) this.lastTouched.clear();
    this.tx.manager
      .query(`UPDATE api_keys SET last_used_at = now() WHERE id = $1`, [keyId])
      .catch((err: Error) => this.logger.debug(`last_used_at not updated: ${err.message}`));
  }
}
