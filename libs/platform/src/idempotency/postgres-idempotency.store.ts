import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '@outreach/core';
import { IDEMPOTENCY_LOCK_MS, IDEMPOTENCY_TTL_MS } from './idempotency-key';
import { IDEMPOTENCY_KEYS } from './idempotency-key.table';
import { IdempotencyClaim, IdempotencyScope, IdempotencyStore } from './idempotency.store';

const OWNER_TOKEN = ['ownerToken'] as const;

const k = IDEMPOTENCY_KEYS.c;
const PRIMARY_KEY = ['workspaceId', 'route', 'key'] as const;
/** What a request that did not get the key needs to know about the one holding it. */
const HOLDER = ['requestHash', 'state', 'responseStatus', 'responseBody'] as const;
const held = (p: keyof typeof k) => `${IDEMPOTENCY_KEYS.name}.${k[p]}`;
/**
 * A row already there is taken over (every column but the key: it starts afresh) only when it
 * expired, or when the same request's holder died (its lock passed). EXCLUDED.created_at is now.
 */
const TAKE_OVER = `ON CONFLICT (${PRIMARY_KEY.map((p) => k[p]).join(', ')}) DO UPDATE SET ${IDEMPOTENCY_KEYS.keys
  .filter((p) => !(PRIMARY_KEY as readonly string[]).includes(p))
  .map((p) => `${k[p]} = EXCLUDED.${k[p]}`)
  .join(', ')}
  WHERE ${held('expiresAt')} <= EXCLUDED.${k.createdAt}
     OR (${held('state')} = 'in_progress' AND ${held('lockedUntil')} <= EXCLUDED.${k.createdAt} AND ${held('requestHash')} = EXCLUDED.${k.requestHash})`;
const KEY_MATCH = PRIMARY_KEY.map((p, i) => `${k[p]} = $${i + 1}`).join(' AND ');

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
      const claim = IDEMPOTENCY_KEYS.insert(
        {
          workspaceId: scope.workspaceId,
          route: scope.route,
          key: scope.key,
          requestHash: scope.requestHash,
          state: 'in_progress',
          ownerToken: token,
          responseStatus: null,
          responseBody: null,
          lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
          expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
          createdAt: now,
          completedAt: null,
        },
        `${TAKE_OVER} RETURNING ${k.ownerToken}`,
      );
      const claimed: Array<Record<string, unknown>> = await this.dataSource.query(claim.sql, claim.params);
      if (claimed[0] && IDEMPOTENCY_KEYS.fromRow(claimed[0], OWNER_TOKEN).ownerToken === token) return { outcome: 'acquired', token };

      const rows: Array<Record<string, unknown>> = await this.dataSource.query(
        `SELECT ${IDEMPOTENCY_KEYS.select(undefined, HOLDER)} FROM ${IDEMPOTENCY_KEYS.name} WHERE ${KEY_MATCH}`,
        [scope.workspaceId, scope.route, scope.key],
      );
      if (!rows[0]) continue;
      const holder = IDEMPOTENCY_KEYS.fromRow(rows[0], HOLDER);
      if (holder.requestHash !== scope.requestHash) return { outcome: 'reused' };
      if (holder.state === 'in_progress') return { outcome: 'in_progress' };
      return { outcome: 'replay', status: holder.responseStatus ?? 200, body: holder.responseBody };
    }
    return { outcome: 'in_progress' };
  }

  async complete(scope: IdempotencyScope, token: string, response: { status: number; body: unknown }): Promise<void> {
    const { sql, params } = IDEMPOTENCY_KEYS.update(
      { ...keyOf(scope), ownerToken: token, state: 'completed', responseStatus: response.status, responseBody: response.body, completedAt: this.clock.now() },
      [...PRIMARY_KEY, 'ownerToken'],
      ['state', 'responseStatus', 'responseBody', 'completedAt'],
    );
    await this.dataSource.query(`${sql} AND ${k.state} = 'in_progress'`, params);
  }

  async release(scope: IdempotencyScope, token: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM ${IDEMPOTENCY_KEYS.name} WHERE ${KEY_MATCH} AND ${k.ownerToken} = $4 AND ${k.state} = 'in_progress'`,
      [scope.workspaceId, scope.route, scope.key, token],
    );
  }

  async purgeExpired(before: Date): Promise<number> {
    const [, count]: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM ${IDEMPOTENCY_KEYS.name} WHERE ${k.expiresAt} < $1`,
      [before],
    );
    return count;
  }
}

function keyOf(scope: IdempotencyScope): { workspaceId: string; route: string; key: string } {
  return { workspaceId: scope.workspaceId, route: scope.route, key: scope.key };
}
