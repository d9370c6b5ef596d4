import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A row that Redis refuses on its own (while other rows go through) waits until retry_at before
 * the relay tries it again, so it can neither block nor slow the rows behind it.
 */
export class PlatformOutboxRetryAt1763700007000 implements MigrationInterface {
  name = 'PlatformOutboxRetryAt1763700007000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ADD COLUMN retry_at timestamptz NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox DROP COLUMN retry_at`);
  }
}
