import { MigrationInterface, QueryRunner } from 'typeorm';

export class Telephony1763700002000 implements MigrationInterface {
  name = 'Telephony1763700002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE phone_numbers (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        e164 text NOT NULL CHECK (e164 ~ '^\\+[1-9][0-9]{7,14}$'),
        carrier text NOT NULL,
        inbound boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT phone_numbers_e164_key UNIQUE (e164)
      )`);
    await q.query(`CREATE INDEX phone_numbers_workspace_idx ON phone_numbers (workspace_id, created_at, id)`);
    // A carrier without a row is enabled; the operator switches one off per workspace.
    await q.query(`
      CREATE TABLE telephony_carriers (
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        enabled boolean NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE telephony_carriers`);
    await q.query(`DROP TABLE phone_numbers`);
  }
}
