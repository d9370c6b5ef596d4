import { MigrationInterface, QueryRunner } from 'typeorm';

/** What the execution engine keeps on contacts and campaigns (decisions.md 16.1, 16.4). */
export class CampaignExecution1763700004100 implements MigrationInterface {
  name = 'CampaignExecution1763700004100';

  async up(q: QueryRunner): Promise<void> {
    // attempt_seq counts every claim of the contact and never resets (restart resets `attempts`):
    // it names the attempt job (attempt-<contactId>-<attemptSeq>), so a restarted campaign never
    // collides with the kept jobs of its earlier run. current_call_id: the attempt's call once it
    // has started (set once: a replayed job never dials twice). attempt_deadline_at: when the
    // reaper may take the attempt back (claim + agent maxCallDurationSecs + grace).
    await q.query(`
      ALTER TABLE campaign_contacts
        ADD COLUMN attempt_seq integer NOT NULL DEFAULT 0,
        ADD COLUMN attempt_started_at timestamptz NULL,
        ADD COLUMN attempt_deadline_at timestamptz NULL,
        ADD COLUMN current_call_id uuid NULL,
        ADD COLUMN incomplete_retries integer NOT NULL DEFAULT 0`);
    await q.query(
      `CREATE INDEX campaign_contacts_retry_due_idx ON campaign_contacts (campaign_id, next_attempt_at) WHERE status = 'RETRY_SCHEDULED'`,
    );
    await q.query(
      `CREATE INDEX campaign_contacts_in_flight_idx ON campaign_contacts (workspace_id, campaign_id) WHERE status = 'IN_PROGRESS'`,
    );
    await q.query(
      `CREATE INDEX campaign_contacts_deadline_idx ON campaign_contacts (attempt_deadline_at) WHERE status = 'IN_PROGRESS'`,
    );
    // Attempts started per campaign and local day (campaign timezone): the dailyDialCap counter.
    await q.query(`
      CREATE TABLE campaign_daily_dials (
        campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        day date NOT NULL,
        dials integer NOT NULL DEFAULT 0,
        PRIMARY KEY (campaign_id, day)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE campaign_daily_dials`);
    await q.query(`DROP INDEX campaign_contacts_deadline_idx`);
    await q.query(`DROP INDEX campaign_contacts_in_flight_idx`);
    await q.query(`DROP INDEX campaign_contacts_retry_due_idx`);
    await q.query(`
      ALTER TABLE campaign_contacts
        DROP COLUMN incomplete_retries,
        DROP COLUMN current_call_id,
        DROP COLUMN attempt_deadline_at,
        DROP COLUMN attempt_started_at,
        DROP COLUMN attempt_seq`);
  }
}
