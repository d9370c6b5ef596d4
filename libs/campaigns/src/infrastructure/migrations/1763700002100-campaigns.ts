import { MigrationInterface, QueryRunner } from 'typeorm';

export class Campaigns1763700002100 implements MigrationInterface {
  name = 'Campaigns1763700002100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE campaign_types (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        extraction_keys jsonb NOT NULL DEFAULT '[]',
        status text NOT NULL CHECK (status IN ('ACTIVE','ARCHIVED')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX campaign_types_workspace_name_key ON campaign_types (workspace_id, lower(name))
        WHERE status = 'ACTIVE'`,
    );
    await q.query(`CREATE INDEX campaign_types_workspace_idx ON campaign_types (workspace_id, created_at)`);

    await q.query(`
      CREATE TABLE campaigns (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        description text NULL,
        status text NOT NULL CHECK (status IN ('DRAFT','RUNNING','PAUSED','CREDIT_EXHAUSTED','COMPLETED','CANCELED')),
        channel text NOT NULL CHECK (channel IN ('VOICE','WHATSAPP','VOICE_THEN_WHATSAPP','WHATSAPP_THEN_VOICE','CUSTOM','EMAIL')),
        source text NOT NULL CHECK (source IN ('CSV','CRM_MANUAL','CRM_WEBHOOK','API','INBOUND')),
        agent_id uuid NULL,
        campaign_type_id uuid NULL, -- a workspace type (campaign_types) or a platform type (in code)
        workflow_id uuid NULL,
        default_crm_connection_id text NULL,
        default_crm_segment_id text NULL,
        reserved_concurrency integer NOT NULL CHECK (reserved_concurrency >= 1),
        allow_burst boolean NOT NULL DEFAULT false,
        timezone text NOT NULL DEFAULT 'UTC',
        scheduled_start_at timestamptz NULL,
        scheduled_end_at timestamptz NULL,
        started_at timestamptz NULL,
        ended_at timestamptz NULL,
        upload_id uuid NULL,
        phone_column text NULL,
        alt_phone_columns text[] NOT NULL DEFAULT '{}',
        country_code text NULL,
        remove_invalid_rows boolean NOT NULL DEFAULT false,
        variable_map jsonb NOT NULL DEFAULT '{}',
        custom_extraction_keys jsonb NOT NULL DEFAULT '[]',
        custom_extraction_keys_mode text NOT NULL CHECK (custom_extraction_keys_mode IN ('APPEND','REPLACE')),
        evaluation_metrics jsonb NOT NULL DEFAULT '[]',
        settings jsonb NOT NULL DEFAULT '{}',
        contact_count integer NOT NULL DEFAULT 0,
        received_calls integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX campaigns_workspace_name_key ON campaigns (workspace_id, lower(name))`);
    await q.query(`CREATE INDEX campaigns_workspace_idx ON campaigns (workspace_id, created_at, id)`);
    await q.query(`CREATE INDEX campaigns_agent_idx ON campaigns (workspace_id, agent_id) WHERE agent_id IS NOT NULL`);
    await q.query(`CREATE INDEX campaigns_running_idx ON campaigns (workspace_id) WHERE status = 'RUNNING'`);

    await q.query(`
      CREATE TABLE campaign_contacts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigserial NOT NULL,
        campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL,
        phone text NOT NULL,
        alt_phones text[] NOT NULL DEFAULT '{}',
        name text NULL,
        fields jsonb NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'PENDING'
          CHECK (status IN ('PENDING','IN_PROGRESS','RETRY_SCHEDULED','COMPLETED','FAILED','DO_NOT_CALL')),
        attempts integer NOT NULL DEFAULT 0,
        last_attempt_at timestamptz NULL,
        next_attempt_at timestamptz NULL,
        last_outcome text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT campaign_contacts_phone_key UNIQUE (campaign_id, phone)
      )`);
    await q.query(`CREATE INDEX campaign_contacts_seq_idx ON campaign_contacts (campaign_id, seq)`);
    await q.query(`CREATE INDEX campaign_contacts_status_idx ON campaign_contacts (campaign_id, status, seq)`);

    await q.query(`
      CREATE TABLE campaign_phone_numbers (
        campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        phone_number_id uuid NOT NULL REFERENCES phone_numbers(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (campaign_id, phone_number_id)
      )`);

    await q.query(`
      CREATE TABLE uploads (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        file_name text NOT NULL,
        columns text[] NOT NULL,
        row_count integer NOT NULL DEFAULT 0,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX uploads_expires_idx ON uploads (expires_at)`);
    await q.query(`
      CREATE TABLE upload_rows (
        upload_id uuid NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
        row_no integer NOT NULL,
        cells text[] NOT NULL,
        PRIMARY KEY (upload_id, row_no)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE upload_rows`);
    await q.query(`DROP TABLE uploads`);
    await q.query(`DROP TABLE campaign_phone_numbers`);
    await q.query(`DROP TABLE campaign_contacts`);
    await q.query(`DROP TABLE campaigns`);
    await q.query(`DROP TABLE campaign_types`);
  }
}
