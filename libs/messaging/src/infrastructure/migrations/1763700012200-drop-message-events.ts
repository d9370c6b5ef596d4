import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * message_events, the ledger of applied provider event ids, has not been written since decisions.md
 * 47.19 (every effect of an event is idempotent by its own key); it was kept one release for
 * workers of the version before it during a rolling deploy, and goes now (decisions.md 47.21).
 */
export class DropMessageEvents1763700012200 implements MigrationInterface {
  name = 'DropMessageEvents1763700012200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS message_events`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE message_events (
        provider text NOT NULL,
        event_id text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (provider, event_id)
      )`);
  }
}
