import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 16: export jobs. The row outlives its file (housekeeping sets file_deleted_at). */
export class Exports1763700010100 implements MigrationInterface {
  name = 'Exports1763700010100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE export_jobs (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        campaign_id uuid NOT NULL,
        format text NOT NULL CHECK (format IN ('CSV','XLSX')),
        status text NOT NULL CHECK (status IN ('queued','running','ready','failed')),
        progress int NOT NULL CHECK (progress BETWEEN 0 AND 100),
        expected_rows int NOT NULL,
        row_count int NULL,
        spec jsonb NOT NULL,
        file_key text NULL,
        file_name text NOT NULL,
        error text NULL,
        created_at timestamptz NOT NULL,
        started_at timestamptz NULL,
        finished_at timestamptz NULL,
        expires_at timestamptz NULL,
        file_deleted_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX export_jobs_campaign_idx ON export_jobs (workspace_id, campaign_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX export_jobs_expiry_idx ON export_jobs (expires_at) WHERE status = 'ready' AND file_deleted_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE export_jobs`);
  }
}
