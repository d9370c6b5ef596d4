import { MigrationInterface, QueryRunner } from 'typeorm';

export class Workspaces1763700000100 implements MigrationInterface {
  name = 'Workspaces1763700000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE workspaces (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        status text NOT NULL CHECK (status IN ('ACTIVE','PENDING_APPROVAL','SUSPENDED','DELETED','INACTIVE')),
        concurrency integer NOT NULL CHECK (concurrency >= 1),
        agent_quota integer NOT NULL CHECK (agent_quota >= 0),
        features text[] NOT NULL DEFAULT '{}',
        trial_until timestamptz NULL,
        activity_frozen boolean NOT NULL DEFAULT false,
        currency char(3) NOT NULL DEFAULT 'USD',
        rate_limit_per_minute integer NULL CHECK (rate_limit_per_minute >= 1),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE members (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner','admin','viewer')),
        status text NOT NULL CHECK (status IN ('ACTIVE','REMOVED','SUSPENDED')),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT members_workspace_email_key UNIQUE (workspace_id, email)
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        member_id uuid NOT NULL REFERENCES members(id),
        name text NOT NULL,
        prefix text NOT NULL,
        key_hash bytea NOT NULL,
        scopes text[] NOT NULL DEFAULT '{}',
        expires_at timestamptz NULL,
        revoked_at timestamptz NULL,
        last_used_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash)
      )`);
    await q.query(`CREATE INDEX api_keys_workspace_idx ON api_keys (workspace_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE members`);
    await q.query(`DROP TABLE workspaces`);
  }
}
