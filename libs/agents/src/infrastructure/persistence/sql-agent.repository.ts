import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { QueryFailedError } from 'typeorm';
import { Agent } from '../../domain/agent.aggregate';
import { AgentRepository } from '../../application/agent.ports';
import { AGENTS, AGENTS_NAME_INDEX } from './agent.table';

const A = AGENTS.c;

@Injectable()
export class SqlAgentRepository extends AgentRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(agent: Agent): Promise<void> {
    const { sql, params } = AGENTS.insert(agent.toProps());
    await this.write(agent, sql, params);
  }

  async update(agent: Agent): Promise<void> {
    const { sql, params } = AGENTS.update(agent.toProps(), ['id']);
    await this.write(agent, sql, params);
  }

  async delete(workspaceId: string, agentId: string): Promise<void> {
    try {
      await this.tx.manager.query(`DELETE FROM ${AGENTS.name} WHERE ${A.id} = $1 AND ${A.workspaceId} = $2`, [agentId, workspaceId]);
    } catch (error) {
      // Another module's rows may point at the agent with a foreign key: still in use.
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23503') {
        throw new AppError('in_use', { message: 'other records reference this agent; archive it instead' });
      }
      throw error;
    }
  }

  async findById(workspaceId: string, agentId: string, options: { lock?: boolean } = {}): Promise<Agent | null> {
    if (!isUuid(agentId) || !isUuid(workspaceId)) return null;
    return this.findOne(`${A.id} = $1 AND ${A.workspaceId} = $2`, [agentId, workspaceId], options.lock);
  }

  async findAnyById(agentId: string, options: { lock?: boolean } = {}): Promise<Agent | null> {
    if (!isUuid(agentId)) return null;
    return this.findOne(`${A.id} = $1`, [agentId], options.lock);
  }

  async listByWorkspace(workspaceId: string): Promise<Agent[]> {
    const rows: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${AGENTS.select()} FROM ${AGENTS.name} WHERE ${A.workspaceId} = $1 ORDER BY ${A.createdAt}, ${A.id}`,
      [workspaceId],
    );
    return rows.map((row) => Agent.restore(AGENTS.fromRow(row)));
  }

  async countLive(workspaceId: string): Promise<number> {
    const [row] = await this.tx.manager.query(
      `SELECT count(*)::int AS n FROM ${AGENTS.name} WHERE ${A.workspaceId} = $1 AND ${A.status} <> 'archived'`,
      [workspaceId],
    );
    return row.n as number;
  }

  async nameExists(workspaceId: string, name: string): Promise<boolean> {
    const rows = await this.tx.manager.query(
      `SELECT 1 FROM ${AGENTS.name} WHERE ${A.workspaceId} = $1 AND lower(${A.name}) = lower($2) LIMIT 1`,
      [workspaceId, name],
    );
    return rows.length > 0;
  }

  async lockWorkspace(workspaceId: string): Promise<void> {
    if (!this.tx.inTransaction) throw new Error('lockWorkspace needs a transaction (UnitOfWork.run)');
    await this.tx.manager.query(`SELECT pg_advisory_xact_lock(hashtext('agents:' || $1::text))`, [workspaceId]);
  }

  private async findOne(where: string, params: unknown[], lock = false): Promise<Agent | null> {
    const forUpdate = lock && this.tx.inTransaction ? ' FOR UPDATE' : '';
    const [row]: Array<Record<string, unknown>> = await this.tx.manager.query(
      `SELECT ${AGENTS.select()} FROM ${AGENTS.name} WHERE ${where}${forUpdate}`,
      params,
    );
    return row ? Agent.restore(AGENTS.fromRow(row)) : null;
  }

  private async write(agent: Agent, sql: string, params: unknown[]): Promise<void> {
    try {
      await this.tx.manager.query(sql, params);
    } catch (error) {
      if (isUniqueViolation(error, AGENTS_NAME_INDEX)) {
        throw new AppError('name_taken', {
          message: `an agent named ${JSON.stringify(agent.name)} exists in this workspace`,
          issues: [{ path: 'name', message: 'already used by another agent of the workspace' }],
        });
      }
      throw error;
    }
  }
}
