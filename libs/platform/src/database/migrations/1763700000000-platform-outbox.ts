import { MigrationInterface, QueryRunner } from 'typeorm';

export class PlatformOutbox1763700000000 implements MigrationInterface {
  name = 'PlatformOutbox1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pgcrypto`);
    await q.query(`
      CREATE TABLE outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        queue text NOT NULL,
        name text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        dispatched_at timestamptz NULL,
        attempts integer NOT NULL DEFAULT 0,
        last_error text NULL
      )`);
    await q.query(`CREATE INDEX outbox_pending_idx ON outbox (created_at) WHERE dispatched_at IS NULL`);
    await q.query(`CREATE INDEX outbox_dispatched_idx ON outbox (dispatched_at) WHERE dispatched_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE outbox`);
  }
}
