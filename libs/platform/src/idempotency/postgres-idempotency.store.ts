import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '@outreach/core';
import { IDEMPOTENCY_LOCK_MS, IDEMPOTENCY_TTL_MS } from './idempotency-key';
import { IdempotencyClaim, IdempotencyScope, IdempotencyStore } from './idempotency.store';

type KeyRow = { request_hash: string; state: 'in_progress' | 'completed'; response_status: number | null; response_body: unknown };

/**
 * Idempotency keys in Postgres (table idempotency_keys, primary key workspace + route + key).
 * The insert-or-conflict decides who runs: exactly one of any number of concurrent requests
 * inserts the row (or takes over an expired one). Queries go straight to the pool, outside any
 * UnitOfWork, so the claim is visible to other requests at once.
 */
@Injectable()
export class PostgresIdempotencyStore extends IdempotencyStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    super();
  }

  async begin(scope: IdempotencyScope): Promise<IdempotencyClaim> {
    // A row can vanish between the failed claim and the read (released after a 5xx): claim again.
    for (let round = 0; round < 3; round++) {
      const now = this.clock.now();
      const token = randomUUID();
      const claimed: Array<{ owner_token: string }> = await this.dataSource.query(
        `INSERT INTO idempotency_keys AS k
           (workspace_id, route, key, request_hash, state, owner_token, locked_until, expires_at, created_at)
         VALUES ($1, $2, $3, $4, 'in_progress', $5, $6, $7, $8)
         ON CONFLICT (workspace_id, route, key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, state = 'in_progress', owner_token = EXCLUDED.owner_token,
               response_status = NULL, response_body = NULL, completed_at = NULL,
               locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at
           WHERE k.expires_at <= $8
              OR (k.state = 'in_progress' AND k.locked_until <= $8 AND k.request_hash = EXCLUDED.request_hash)
         RETURNING owner_token`,
        [
          scope.workspaceId,
          scope.route,
          scope.key,
          scope.requestHash,
          token,
          new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
          new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
          now,
        ],
      );
      if (claimed[0]?.owner_token === token) return { outcome: 'acquired', token };

      const rows: KeyRow[] = await this.dataSource.query(
        `SELECT request_hash, state, response_status, response_body FROM idempotency_keys
          WHERE workspace_id = $1 AND route = $2 AND key = $3`,
        [scope.workspaceId, scope.route, scope.key],
      );
      const row = rows[0];
      if (!row) continue;
      if (row.request_hash !== scope.requestHash) return { outcome: 'reused' };
      if (row.state === 'in_progress') return { outcome: 'in_progress' };
      return { outcome: 'replay', status: row.response_status ?? 200, body: row.response_body };
    }
    return { outcome: 'in_progress' };
  }

  async complete(scope: IdempotencyScope, token: string, response: { status: number; body: unknown }): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_keys
          SET state = 'completed', response_status = $5, response_body = $6::jsonb, completed_at = $7
        WHERE workspace_id = $1 AND route = $2 AND key = $3 AND owner_token = $4 AND state = 'in_progress'`,
      [
        scope.workspaceId,
        scope.route,
        scope.key,
        token,
        response.status,
        response.body === undefined ? null : JSON.stringify(response.body),
        this.clock.now(),
      ],
    );
  }

  async release(scope: IdempotencyScope, token: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM idempotency_keys
        WHERE workspace_id = $1 AND route = $2 AND key = $3 AND owner_token = $4 AND state = 'in_progress'`,
      [scope.workspaceId, scope.route, scope.key, token],
    );
  }

  async purgeExpired(before: Date): Promise<number> {
    const [, count]: [unknown[], number] = await this.dataSource.query(`DELETE FROM idempotency_keys WHERE expires_at < $1`, [before]);
    return count;
  }
}
