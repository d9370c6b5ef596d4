import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { WorkflowRepository } from '../../application/workflows.ports';
import { Workflow, WorkflowProps } from '../../domain/workflow';
import type { WorkflowDefinition } from '../../domain/workflow-definition';
import { WORKFLOW_REVISIONS, WORKFLOWS } from './workflow.tables';

type Row = Record<string, unknown>;
const W = WORKFLOWS.c;
const R = WORKFLOW_REVISIONS.c;

@Injectable()
export class SqlWorkflowRepository extends WorkflowRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(w: WorkflowProps): Promise<void> {
    await this.tx.run(async () => {
      const { sql, params } = WORKFLOWS.insert({ ...this.row(w), deletedAt: null });
      await this.tx.manager.query(sql, params);
      await this.insertRevision(w);
    });
  }

  async save(w: WorkflowProps, expected: number): Promise<boolean> {
    return this.tx.run(async () => {
      const [, affected]: [unknown, number] = await this.tx.manager.query(
        `UPDATE ${WORKFLOWS.name} SET ${W.name} = $3, ${W.status} = $4, ${W.revision} = $5, ${W.updatedAt} = $6
          WHERE ${W.id} = $1 AND ${W.revision} = $2 AND ${W.deletedAt} IS NULL`,
        [w.id, expected, w.name, w.status, w.revision, w.updatedAt],
      );
      if (affected !== 1) return false;
      await this.insertRevision(w);
      return true;
    });
  }

  async find(workspaceId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Workflow | null> {
    if (options.forUpdate && this.tx.inTransaction) {
      // Locked first, then read: a join re-checked after the wait would miss the row a concurrent write moved to a new revision.
      await this.tx.manager.query(`SELECT 1 FROM ${WORKFLOWS.name} WHERE ${W.id} = $1 FOR UPDATE`, [id]);
    }
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${WORKFLOWS.select('w')}, r.${R.definition} AS definition FROM ${WORKFLOWS.name} w
         JOIN ${WORKFLOW_REVISIONS.name} r ON r.${R.workflowId} = w.${W.id} AND r.${R.revision} = w.${W.revision}
        WHERE w.${W.id} = $1 AND w.${W.workspaceId} = $2 AND w.${W.deletedAt} IS NULL`,
      [id, workspaceId],
    );
    if (!rows.length) return null;
    const { deletedAt: _deleted, ...props } = WORKFLOWS.fromRow(rows[0]);
    return Workflow.restore({ ...props, definition: rows[0].definition as WorkflowDefinition });
  }

  async list(workspaceId: string): Promise<WorkflowProps[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${WORKFLOWS.select('w')}, r.${R.definition} AS definition FROM ${WORKFLOWS.name} w
         JOIN ${WORKFLOW_REVISIONS.name} r ON r.${R.workflowId} = w.${W.id} AND r.${R.revision} = w.${W.revision}
        WHERE w.${W.workspaceId} = $1 AND w.${W.deletedAt} IS NULL ORDER BY w.${W.createdAt}, w.${W.id}`,
      [workspaceId],
    );
    return rows.map((row) => {
      const { deletedAt: _deleted, ...props } = WORKFLOWS.fromRow(row);
      return { ...props, definition: row.definition as WorkflowDefinition };
    });
  }

  async markDeleted(id: string, at: Date): Promise<void> {
    await this.tx.manager.query(`UPDATE ${WORKFLOWS.name} SET ${W.deletedAt} = $2 WHERE ${W.id} = $1`, [id, at]);
  }

  async revision(workflowId: string, revision: number): Promise<WorkflowDefinition | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${R.definition} AS definition FROM ${WORKFLOW_REVISIONS.name} WHERE ${R.workflowId} = $1 AND ${R.revision} = $2`,
      [workflowId, revision],
    );
    return rows.length ? (rows[0].definition as WorkflowDefinition) : null;
  }

  async referencesAgent(workspaceId: string, agentId: string): Promise<boolean> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT 1 FROM ${WORKFLOWS.name} w
         JOIN ${WORKFLOW_REVISIONS.name} r ON r.${R.workflowId} = w.${W.id} AND r.${R.revision} = w.${W.revision}
        WHERE w.${W.workspaceId} = $1 AND w.${W.deletedAt} IS NULL AND w.${W.status} <> 'archived'
          AND r.${R.definition} -> 'nodes' @> $2::jsonb
        LIMIT 1`,
      [workspaceId, JSON.stringify([{ kind: 'call', config: { agentId } }])],
    );
    return rows.length > 0;
  }

  private row(w: WorkflowProps) {
    return { id: w.id, workspaceId: w.workspaceId, name: w.name, status: w.status, revision: w.revision, createdAt: w.createdAt, updatedAt: w.updatedAt };
  }

  private async insertRevision(w: WorkflowProps): Promise<void> {
    const { sql, params } = WORKFLOW_REVISIONS.insert({ workflowId: w.id, revision: w.revision, definition: w.definition, createdAt: w.updatedAt });
    await this.tx.manager.query(sql, params);
  }
}
