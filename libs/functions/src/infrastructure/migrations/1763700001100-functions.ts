import { MigrationInterface, QueryRunner } from 'typeorm';

export class Functions1763700001100 implements MigrationInterface {
  name = 'Functions1763700001100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE custom_functions (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        description text NOT NULL,
        parameters jsonb NOT NULL,
        method text NOT NULL CHECK (method IN ('GET','POST','PUT','PATCH','DELETE')),
        url text NOT NULL,
        header_names text[] NOT NULL DEFAULT '{}',
        headers_sealed text NULL,
        timeout_ms integer NOT NULL CHECK (timeout_ms BETWEEN 100 AND 30000),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX custom_functions_workspace_name_key ON custom_functions (workspace_id, lower(name))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE custom_functions`);
  }
}
