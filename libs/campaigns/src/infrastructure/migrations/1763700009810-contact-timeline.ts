import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A contact's timeline (issue 17, item 5; decisions.md 29.3): its events, and why it waits now (a
 * skip is recorded only when that changes). Both go with their contact (ON DELETE CASCADE).
 */
export class ContactTimeline1763700009810 implements MigrationInterface {
  name = 'ContactTimeline1763700009810';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE contact_timeline_events (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        contact_id uuid NOT NULL REFERENCES campaign_contacts (id) ON DELETE CASCADE,
        type text NOT NULL,
        occurred_at timestamptz NOT NULL,
        detail jsonb NOT NULL DEFAULT '{}'
      )`);
    await q.query(`CREATE INDEX contact_timeline_events_contact_idx ON contact_timeline_events (contact_id, seq)`);
    await q.query(`CREATE INDEX contact_timeline_events_occurred_idx ON contact_timeline_events (occurred_at)`);
    await q.query(`
      CREATE TABLE contact_waits (
        contact_id uuid PRIMARY KEY REFERENCES campaign_contacts (id) ON DELETE CASCADE,
        reason text NOT NULL,
        until timestamptz NULL,
        since timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE contact_waits`);
    await q.query(`DROP TABLE contact_timeline_events`);
  }
}
