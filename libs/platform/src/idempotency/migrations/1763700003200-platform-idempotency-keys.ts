import { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency-Key records of billed POST routes (decisions.md 21.1, 21.2), kept 24 h. */
export class PlatformIdempotencyKeys1763700003200 implements MigrationInterface {
  name = 'PlatformIdempotencyKeys1763700003200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        workspace_id uuid NOT NULL,
        route text NOT NULL,
        key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 200),
        request_hash char(64) NOT NULL,
        state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
        owner_token uuid NOT NULL,
        response_status int NULL,
        response_body jsonb NULL,
        locked_until timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        completed_at timestamptz NULL,
        PRIMARY KEY (workspace_id, route, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
