import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13 item 4: durable runs (decisions.md 37.12). One run per lead (contact_id unique) with
 * the revision it started on and its position (node id + visit number); one step row per visit,
 * written in the same transaction as the position it leaves and the job it queues.
 */
export class WorkflowRuns1763700011700 implements MigrationInterface {
  name = 'WorkflowRuns1763700011700';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE workflow_runs (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id),
        workflow_id uuid NOT NULL,
        revision int NOT NULL,
        campaign_id uuid NOT NULL,
        contact_id uuid NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('RUNNING','WAITING','DONE','FAILED','CANCELED')),
        node_id text NOT NULL,
        visit int NOT NULL CHECK (visit >= 1),
        due_at timestamptz NULL,
        end_label text NULL,
        failure_reason text NULL,
        tags text[] NOT NULL DEFAULT '{}',
        facts jsonb NOT NULL DEFAULT '{}',
        started_at timestamptz NOT NULL,
        ended_at timestamptz NULL,
        updated_at timestamptz NOT NULL,
        FOREIGN KEY (workflow_id, revision) REFERENCES workflow_revisions (workflow_id, revision)
      )`);
    await q.query(`CREATE INDEX workflow_runs_workflow_idx ON workflow_runs (workflow_id, started_at, id)`);
    await q.query(`CREATE INDEX workflow_runs_campaign_idx ON workflow_runs (campaign_id)`);
    // The sweep's two reads: WAITING runs by due time, RUNNING runs by their last change.
    await q.query(`CREATE INDEX workflow_runs_waiting_idx ON workflow_runs (due_at) WHERE status = 'WAITING'`);
    await q.query(`CREATE INDEX workflow_runs_running_idx ON workflow_runs (updated_at) WHERE status = 'RUNNING'`);
    await q.query(`
      CREATE TABLE workflow_steps (
        run_id uuid NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
        visit int NOT NULL,
        node_id text NOT NULL,
        kind text NOT NULL,
        label text NULL,
        status text NOT NULL CHECK (status IN ('PENDING','RUNNING','DONE','FAILED','SKIPPED')),
        port text NULL,
        error text NULL,
        call_id uuid NULL,
        message_id uuid NULL,
        started_at timestamptz NOT NULL,
        ended_at timestamptz NULL,
        PRIMARY KEY (run_id, visit)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE workflow_steps`);
    await q.query(`DROP TABLE workflow_runs`);
  }
}
