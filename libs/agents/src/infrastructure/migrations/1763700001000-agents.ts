import { MigrationInterface, QueryRunner } from 'typeorm';

export class Agents1763700001000 implements MigrationInterface {
  name = 'Agents1763700001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        status text NOT NULL CHECK (status IN ('PROVISIONING','ACTIVE','archived')),
        agent_type text NOT NULL CHECK (agent_type IN ('OUTBOUND','INBOUND')),
        prompt text NOT NULL,
        prompt_source text NOT NULL CHECK (prompt_source IN ('custom','studio')),
        greeting text NULL,
        voice text NOT NULL,
        pre_call_variables text[] NULL,
        extraction_config jsonb NULL,
        enable_recording boolean NOT NULL,
        end_call_enabled boolean NOT NULL,
        end_call_message text NULL,
        end_call_triggers text[] NULL,
        max_call_duration_secs integer NOT NULL CHECK (max_call_duration_secs BETWEEN 60 AND 3600),
        background_audio_id text NULL,
        background_audio_volume double precision NULL CHECK (background_audio_volume BETWEEN 0 AND 1),
        voicemail_detection_enabled boolean NOT NULL,
        voicemail_message text NULL,
        screener_handling_enabled boolean NOT NULL,
        transfer_enabled boolean NOT NULL,
        transfer_number text NULL,
        transfer_message text NULL,
        transfer_triggers text[] NULL,
        studio_config jsonb NULL,
        abilities jsonb NULL,
        flow_graph jsonb NULL,
        provider_agent_id text NULL,
        provisioned_at timestamptz NULL,
        archived_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Names are unique per workspace regardless of case, archived agents included.
    await q.query(`CREATE UNIQUE INDEX agents_workspace_name_key ON agents (workspace_id, lower(name))`);
    await q.query(`CREATE INDEX agents_workspace_created_idx ON agents (workspace_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agents`);
  }
}
