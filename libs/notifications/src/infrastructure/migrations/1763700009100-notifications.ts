import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 22, item 6: campaign notifications, one row per member, event and occurrence. */
export class Notifications1763700009100 implements MigrationInterface {
  name = 'Notifications1763700009100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notifications (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        member_id uuid NOT NULL REFERENCES members(id),
        email text NOT NULL,
        campaign_id uuid NOT NULL,
        campaign_name text NOT NULL,
        event text NOT NULL CHECK (event IN ('campaign_completed','campaign_paused','campaign_credit_exhausted')),
        reason text NULL,
        occurred_at timestamptz NOT NULL,
        email_status text NOT NULL CHECK (email_status IN ('not_configured','pending','sent','failed')),
        created_at timestamptz NOT NULL,
        CONSTRAINT notifications_occurrence_member_key UNIQUE (campaign_id, event, occurred_at, member_id)
      )`);
    await q.query(`CREATE INDEX notifications_workspace_created_idx ON notifications (workspace_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE notifications`);
  }
}
