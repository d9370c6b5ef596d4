import { Injectable } from '@nestjs/common';
import { isUniqueViolation, isUuid, TransactionHost } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { QueryFailedError } from 'typeorm';
import { Agent, AgentProps, PromptSource } from '../domain/agent.aggregate';
import { AgentStatus, AgentType } from '../domain/agent.types';
import { AgentRepository } from '../application/agent.ports';
import { AgentEntity } from './agent.typeorm-entity';

const NAME_INDEX = 'agents_workspace_name_key';

@Injectable()
export class TypeormAgentRepository extends AgentRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  private get repo() {
    return this.tx.manager.getRepository(AgentEntity);
  }

  async insert(agent: Agent): Promise<void> {
    await this.write(agent, () => this.repo.insert(toRow(agent.toProps())));
  }

  async update(agent: Agent): Promise<void> {
    const { id, ...rest } = toRow(agent.toProps());
    await this.write(agent, () => this.repo.update({ id }, rest));
  }

  async delete(workspaceId: string, agentId: string): Promise<void> {
    try {
      await this.repo.delete({ id: agentId, workspaceId });
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
    return this.findOne({ id: agentId, workspaceId }, options.lock);
  }

  async findAnyById(agentId: string, options: { lock?: boolean } = {}): Promise<Agent | null> {
    if (!isUuid(agentId)) return null;
    return this.findOne({ id: agentId }, options.lock);
  }

  async listByWorkspace(workspaceId: string): Promise<Agent[]> {
    const rows = await this.repo.find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toDomain);
  }

  async countLive(workspaceId: string): Promise<number> {
    const [row] = await this.tx.manager.query(
      `SELECT count(*)::int AS n FROM agents WHERE workspace_id = $1 AND status <> 'archived'`,
      [workspaceId],
    );
    return row.n as number;
  }

  async nameExists(workspaceId: string, name: string): Promise<boolean> {
    const rows = await this.tx.manager.query(`SELECT 1 FROM agents WHERE workspace_id = $1 AND lower(name) = lower($2) LIMIT 1`, [
      workspaceId,
      name,
    ]);
    return rows.length > 0;
  }

  async lockWorkspace(workspaceId: string): Promise<void> {
    if (!this.tx.inTransaction) throw new Error('lockWorkspace needs a transaction (UnitOfWork.run)');
    await this.tx.manager.query(`SELECT pg_advisory_xact_lock(hashtext('agents:' || $1::text))`, [workspaceId]);
  }

  private async findOne(where: { id: string; workspaceId?: string }, lock = false): Promise<Agent | null> {
    const row = await this.repo.findOne({
      where,
      ...(lock && this.tx.inTransaction ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? toDomain(row) : null;
  }

  private async write(agent: Agent, op: () => Promise<unknown>): Promise<void> {
    try {
      await op();
    } catch (error) {
      if (isUniqueViolation(error, NAME_INDEX)) {
        throw new AppError('name_taken', {
          message: `an agent named ${JSON.stringify(agent.name)} exists in this workspace`,
          issues: [{ path: 'name', message: 'already used by another agent of the workspace' }],
        });
      }
      throw error;
    }
  }
}

function toRow(props: AgentProps): AgentEntity {
  const row: AgentEntity = { ...props };
  return row;
}

function toDomain(row: AgentEntity): Agent {
  return Agent.restore({
    ...row,
    status: row.status as AgentStatus,
    agentType: row.agentType as AgentType,
    promptSource: row.promptSource as PromptSource,
  });
}
