import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13: workflows and their revisions (decisions.md 37.2). A revision's definition never
 * changes once written: runs keep the revision they started on. A deleted workflow keeps its row
 * (deleted_at) so its revisions stay readable.
 */
export class Workflows1763700011400 implements MigrationInterface {
  name = 'Workflows1763700011400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE workflows (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        status text NOT NULL CHECK (status IN ('DRAFT','ACTIVE','archived')),
        revision int NOT NULL CHECK (revision >= 1),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deleted_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX workflows_workspace_idx ON workflows (workspace_id, created_at, id) WHERE deleted_at IS NULL`);
    await q.query(`
      CREATE TABLE workflow_revisions (
        workflow_id uuid NOT NULL REFERENCES workflows(id),
        revision int NOT NULL,
        definition jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (workflow_id, revision)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE workflow_revisions`);
    await q.query(`DROP TABLE workflows`);
  }
}
