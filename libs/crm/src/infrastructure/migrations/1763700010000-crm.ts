import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 14: CRM connections, imports and inbound webhook events (decisions.md 31). */
export class Crm1763700010000 implements MigrationInterface {
  name = 'Crm1763700010000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE crm_connections (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        slug text NOT NULL,
        status text NOT NULL CHECK (status IN ('ACTIVE','DISCONNECTED')),
        provider_email text NOT NULL,
        display jsonb NOT NULL DEFAULT '{}',
        sealed_credentials text NOT NULL,
        has_webhook_secret boolean NOT NULL,
        mappings jsonb NOT NULL DEFAULT '[]',
        missing_scopes jsonb NOT NULL DEFAULT '[]',
        webhook_topics jsonb NOT NULL,
        connected_at timestamptz NOT NULL,
        disconnected_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX crm_connections_workspace_idx ON crm_connections (workspace_id, connected_at, id)`);
    await q.query(`
      CREATE TABLE crm_imports (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        campaign_id uuid NOT NULL,
        connection_id uuid NOT NULL REFERENCES crm_connections(id),
        segment_id text NULL,
        status text NOT NULL CHECK (status IN ('pending','running','completed','failed')),
        cursor text NULL,
        pages int NOT NULL,
        counts jsonb NOT NULL,
        total int NULL,
        failures int NOT NULL,
        error text NULL,
        created_at timestamptz NOT NULL,
        started_at timestamptz NULL,
        finished_at timestamptz NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX crm_imports_campaign_idx ON crm_imports (workspace_id, campaign_id, status)`);
    await q.query(`
      CREATE TABLE crm_webhook_events (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        connection_id uuid NOT NULL REFERENCES crm_connections(id),
        record_id text NOT NULL,
        phone_key text NOT NULL,
        contact jsonb NOT NULL,
        campaign_id uuid NULL,
        received_at timestamptz NOT NULL,
        delivered_at timestamptz NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX crm_webhook_events_record_idx ON crm_webhook_events (connection_id, record_id, phone_key)`);
    await q.query(`CREATE INDEX crm_webhook_events_deferred_idx ON crm_webhook_events (connection_id, received_at, id) WHERE delivered_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE crm_webhook_events`);
    await q.query(`DROP TABLE crm_imports`);
    await q.query(`DROP TABLE crm_connections`);
  }
}
