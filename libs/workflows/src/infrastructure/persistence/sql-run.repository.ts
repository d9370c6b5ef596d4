import { Injectable } from '@nestjs/common';
import { isUuid, TransactionHost } from '@outreach/platform';
import { RunPageQuery, RunRepository, RunState, StepState } from '../../application/runs.ports';
import { WORKFLOW_RUNS, WORKFLOW_STEPS } from './workflow.tables';

type Row = Record<string, unknown>;
const R = WORKFLOW_RUNS.c;
const S = WORKFLOW_STEPS.c;
const SAVED: ReadonlyArray<keyof RunState> = ['status', 'nodeId', 'visit', 'dueAt', 'endLabel', 'failureReason', 'tags', 'facts', 'endedAt', 'updatedAt'];

/** workflow_runs and workflow_steps (decisions.md 37.12). */
@Injectable()
export class SqlRunRepository extends RunRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insertMany(runs: readonly RunState[]): Promise<void> {
    if (runs.length === 0) return;
    const { sql, params } = WORKFLOW_RUNS.insertMany(runs, `ON CONFLICT (${R.contactId}) DO NOTHING`);
    await this.tx.manager.query(sql, params);
  }

  lock(runId: string): Promise<RunState | null> {
    return this.one(`${R.id} = $1 FOR UPDATE`, runId);
  }

  lockByContact(contactId: string): Promise<RunState | null> {
    return this.one(`${R.contactId} = $1 FOR UPDATE`, contactId);
  }

  find(runId: string): Promise<RunState | null> {
    return this.one(`${R.id} = $1`, runId);
  }

  findByContact(contactId: string): Promise<RunState | null> {
    return this.one(`${R.contactId} = $1`, contactId);
  }

  async save(run: RunState): Promise<void> {
    const { sql, params } = WORKFLOW_RUNS.update(run, ['id'], SAVED);
    await this.tx.manager.query(sql, params);
  }

  async writeStep(step: StepState): Promise<void> {
    const set = (['nodeId', 'kind', 'label', 'status', 'port', 'error', 'callId', 'messageId', 'endedAt'] as const).map((k) => `${S[k]} = EXCLUDED.${S[k]}`).join(', ');
    const { sql, params } = WORKFLOW_STEPS.insert(step, `ON CONFLICT (${S.runId}, ${S.visit}) DO UPDATE SET ${set}`);
    await this.tx.manager.query(sql, params);
  }

  async step(runId: string, visit: number): Promise<StepState | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${WORKFLOW_STEPS.select()} FROM ${WORKFLOW_STEPS.name} WHERE ${S.runId} = $1 AND ${S.visit} = $2`, [runId, visit]);
    return rows[0] ? WORKFLOW_STEPS.fromRow(rows[0]) : null;
  }

  async steps(runId: string): Promise<StepState[]> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${WORKFLOW_STEPS.select()} FROM ${WORKFLOW_STEPS.name} WHERE ${S.runId} = $1 ORDER BY ${S.visit}`, [runId]);
    return rows.map((row) => WORKFLOW_STEPS.fromRow(row));
  }

  async page(workspaceId: string, workflowId: string, query: RunPageQuery): Promise<{ items: RunState[]; total: number }> {
    if (!isUuid(workflowId)) return { items: [], total: 0 };
    const params: unknown[] = [workspaceId, workflowId];
    let where = `${R.workspaceId} = $1 AND ${R.workflowId} = $2`;
    if (query.status) {
      params.push(query.status);
      where += ` AND ${R.status} = $${params.length}`;
    }
    const [{ total }]: Array<{ total: number }> = await this.tx.manager.query(`SELECT count(*)::int AS total FROM ${WORKFLOW_RUNS.name} WHERE ${where}`, params);
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${WORKFLOW_RUNS.select()} FROM ${WORKFLOW_RUNS.name} WHERE ${where} ORDER BY ${R.startedAt}, ${R.id} OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
      [...params, query.offset, query.limit],
    );
    return { items: rows.map((row) => WORKFLOW_RUNS.fromRow(row)), total };
  }

  async stuck(now: Date, idleBefore: Date, kinds: readonly string[], limit: number): Promise<Array<{ id: string; visit: number }>> {
    const waiting: Row[] = await this.tx.manager.query(
      `SELECT ${R.id} AS id, ${R.visit} AS visit FROM ${WORKFLOW_RUNS.name} WHERE ${R.status} = 'WAITING' AND ${R.dueAt} <= $1 ORDER BY ${R.dueAt} LIMIT $2`,
      [now, limit],
    );
    // A RUNNING run sits at a node of its revision; its kind is read from the revision (the definition's nodes).
    const running: Row[] = await this.tx.manager.query(
      `SELECT r.${R.id} AS id, r.${R.visit} AS visit FROM ${WORKFLOW_RUNS.name} r
         JOIN workflow_revisions v ON v.workflow_id = r.${R.workflowId} AND v.revision = r.${R.revision}
        WHERE r.${R.status} = 'RUNNING' AND r.${R.updatedAt} <= $1
          AND EXISTS (SELECT 1 FROM jsonb_array_elements(v.definition -> 'nodes') n WHERE n ->> 'id' = r.${R.nodeId} AND n ->> 'kind' = ANY($3::text[]))
        ORDER BY r.${R.updatedAt} LIMIT $2`,
      [idleBefore, limit, [...kinds]],
    );
    return [...waiting, ...running].map((row) => ({ id: row.id as string, visit: Number(row.visit) }));
  }

  async idleCalls(idleBefore: Date, limit: number): Promise<Array<{ id: string; contactId: string }>> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT r.${R.id} AS id, r.${R.contactId} AS contact_id FROM ${WORKFLOW_RUNS.name} r
         JOIN workflow_revisions v ON v.workflow_id = r.${R.workflowId} AND v.revision = r.${R.revision}
        WHERE r.${R.status} = 'RUNNING' AND r.${R.updatedAt} <= $1
          AND EXISTS (SELECT 1 FROM jsonb_array_elements(v.definition -> 'nodes') n WHERE n ->> 'id' = r.${R.nodeId} AND n ->> 'kind' = 'call')
        ORDER BY r.${R.updatedAt} LIMIT $2`,
      [idleBefore, limit],
    );
    return rows.map((row) => ({ id: row.id as string, contactId: row.contact_id as string }));
  }

  private async one(where: string, id: string): Promise<RunState | null> {
    if (!isUuid(id)) return null;
    const rows: Row[] = await this.tx.manager.query(`SELECT ${WORKFLOW_RUNS.select()} FROM ${WORKFLOW_RUNS.name} WHERE ${where}`, [id]);
    return rows[0] ? WORKFLOW_RUNS.fromRow(rows[0]) : null;
  }
}
