import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An outbox row may name its BullMQ jobId (e.g. the engine's attempt-<contactId>-<seq>); rows
 * without one are enqueued as outbox-<id>.
 */
export class PlatformOutboxJobId1763700004050 implements MigrationInterface {
  name = 'PlatformOutboxJobId1763700004050';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ADD COLUMN job_id text NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox DROP COLUMN job_id`);
  }
}
