import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 5: the per-workspace do-not-call list (E.164 numbers). */
export class DncEntries1763700003100 implements MigrationInterface {
  name = 'DncEntries1763700003100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dnc_entries (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        phone text NOT NULL,
        reason text NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT dnc_entries_workspace_phone_key UNIQUE (workspace_id, phone)
      )`);
    await q.query(`CREATE INDEX dnc_entries_workspace_created_idx ON dnc_entries (workspace_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dnc_entries`);
  }
}
