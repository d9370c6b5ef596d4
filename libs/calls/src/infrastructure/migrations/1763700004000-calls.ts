import { MigrationInterface, QueryRunner } from 'typeorm';

export class Calls1763700004000 implements MigrationInterface {
  name = 'Calls1763700004000';

  async up(q: QueryRunner): Promise<void> {
    // campaign, contact and agent ids are references by value: calls outlive a deleted campaign.
    await q.query(`
      CREATE TABLE calls (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        campaign_id uuid NULL,
        contact_id uuid NULL,
        agent_id uuid NULL,
        from_number text NULL,
        to_number text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('campaign','test')),
        status text NOT NULL CHECK (status IN ('IN_PROGRESS','ENDED','FAILED')),
        outcome text NULL CHECK (outcome IN ('no_answer','busy','voicemail','carrier_failure','transferred','completed')),
        provider_disposition text NULL,
        provider_call_id text NULL,
        attempt_number integer NOT NULL CHECK (attempt_number >= 0),
        started_at timestamptz NOT NULL,
        answered_at timestamptz NULL,
        ended_at timestamptz NULL,
        duration_ms integer NULL CHECK (duration_ms >= 0),
        transcript text NULL,
        recording_url text NULL,
        extraction jsonb NULL,
        evaluation jsonb NULL,
        analysis_status text NOT NULL DEFAULT 'PENDING' CHECK (analysis_status IN ('PENDING','DONE','FAILED','SKIPPED')),
        idempotency_key text NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX calls_workspace_idempotency_key ON calls (workspace_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
    await q.query(`CREATE INDEX calls_workspace_created_idx ON calls (workspace_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX calls_campaign_created_idx ON calls (campaign_id, created_at DESC)`);
    await q.query(`CREATE INDEX calls_contact_idx ON calls (contact_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE calls`);
  }
}
