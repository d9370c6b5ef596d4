import { MigrationInterface, QueryRunner } from 'typeorm';

/** Leads (idempotency keys of the lead push), results, result webhooks and API logs. */
export class Results1763700006100 implements MigrationInterface {
  name = 'Results1763700006100';

  async up(q: QueryRunner): Promise<void> {
    // One row per (campaign, idempotency key), never expiring. lead_id is the campaign contact;
    // it stays NULL only inside the transaction that claimed the key.
    await q.query(`
      CREATE TABLE api_lead_keys (
        campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        idempotency_key text NOT NULL,
        workspace_id uuid NOT NULL,
        lead_id uuid NULL REFERENCES campaign_contacts(id) ON DELETE CASCADE,
        fingerprint text NOT NULL,
        lead jsonb NOT NULL,
        response jsonb NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (campaign_id, idempotency_key)
      )`);
    await q.query(`CREATE INDEX api_lead_keys_lead_idx ON api_lead_keys (lead_id, created_at)`);

    // Immutable result envelopes; a purged one keeps its id and expired_at (a tombstone).
    await q.query(`
      CREATE TABLE lead_results (
        id uuid PRIMARY KEY,
        seq bigserial NOT NULL,
        workspace_id uuid NOT NULL,
        campaign_id uuid NOT NULL,
        lead_id uuid NOT NULL,
        envelope jsonb NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        expired_at timestamptz NULL,
        CONSTRAINT lead_results_lead_key UNIQUE (lead_id)
      )`);
    await q.query(`CREATE INDEX lead_results_workspace_seq_idx ON lead_results (workspace_id, seq)`);
    await q.query(`CREATE INDEX lead_results_campaign_seq_idx ON lead_results (workspace_id, campaign_id, seq)`);
    await q.query(`CREATE INDEX lead_results_expiry_idx ON lead_results (expires_at) WHERE envelope IS NOT NULL`);

    await q.query(`
      CREATE TABLE result_webhook_endpoints (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        url text NOT NULL,
        description text NULL,
        enabled boolean NOT NULL,
        disabled_reason text NULL,
        secret_sealed text NOT NULL,
        previous_secret_sealed text NULL,
        previous_secret_expires_at timestamptz NULL,
        secret_rotated_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deleted_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX result_webhook_endpoints_workspace_idx ON result_webhook_endpoints (workspace_id, created_at) WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE result_webhook_deliveries (
        id uuid PRIMARY KEY,
        seq bigserial NOT NULL,
        workspace_id uuid NOT NULL,
        endpoint_id uuid NOT NULL REFERENCES result_webhook_endpoints(id),
        result_id uuid NOT NULL REFERENCES lead_results(id),
        status text NOT NULL CHECK (status IN ('PENDING','SUCCEEDED','FAILED','CANCELED')),
        attempt_count integer NOT NULL DEFAULT 0,
        retry_base integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NULL,
        lease_until timestamptz NULL,
        last_status_code integer NULL,
        last_error text NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT result_webhook_deliveries_endpoint_result_key UNIQUE (endpoint_id, result_id)
      )`);
    await q.query(`CREATE INDEX result_webhook_deliveries_due_idx ON result_webhook_deliveries (next_attempt_at) WHERE status = 'PENDING'`);
    await q.query(`CREATE INDEX result_webhook_deliveries_workspace_idx ON result_webhook_deliveries (workspace_id, seq)`);
    await q.query(`CREATE INDEX result_webhook_deliveries_result_idx ON result_webhook_deliveries (result_id)`);

    await q.query(`
      CREATE TABLE result_webhook_attempts (
        delivery_id uuid NOT NULL REFERENCES result_webhook_deliveries(id) ON DELETE CASCADE,
        number integer NOT NULL,
        attempted_at timestamptz NOT NULL,
        status_code integer NULL,
        error text NULL,
        duration_ms integer NOT NULL,
        PRIMARY KEY (delivery_id, number)
      )`);

    await q.query(`
      CREATE TABLE api_logs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigserial NOT NULL,
        workspace_id uuid NOT NULL,
        campaign_id uuid NOT NULL,
        method text NOT NULL,
        route text NOT NULL,
        path text NOT NULL,
        status integer NOT NULL,
        error_code text NULL,
        latency_ms integer NOT NULL,
        key_id uuid NULL,
        request_id text NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX api_logs_campaign_seq_idx ON api_logs (workspace_id, campaign_id, seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_logs`);
    await q.query(`DROP TABLE result_webhook_attempts`);
    await q.query(`DROP TABLE result_webhook_deliveries`);
    await q.query(`DROP TABLE result_webhook_endpoints`);
    await q.query(`DROP TABLE lead_results`);
    await q.query(`DROP TABLE api_lead_keys`);
  }
}
