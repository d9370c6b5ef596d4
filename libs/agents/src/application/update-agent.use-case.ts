import { Injectable } from '@nestjs/common';
import { AppError, Clock, UnitOfWork } from '@outreach/core';
import { AgentSettings } from '../domain/agent.types';
import { AgentReferenceChecks } from './agent-reference-checks';
import { AgentView, agentView } from './agent-view';
import { AgentRepository } from './agent.ports';

/** PATCH /agents/{id}: partial, at least one field; a refused change leaves the agent untouched. */
@Injectable()
export class UpdateAgent {
  constructor(
    private readonly agents: AgentRepository,
    private readonly references: AgentReferenceChecks,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(workspaceId: string, agentId: string, changes: Partial<AgentSettings>): Promise<AgentView> {
    const changed = Object.keys(changes).filter((k) => changes[k as keyof AgentSettings] !== undefined);
    if (changed.length === 0) throw new AppError('no_fields_to_update', { message: 'send at least one agent field' });
    return this.uow.run(async () => {
      const agent = await this.agents.findById(workspaceId, agentId, { lock: true });
      if (!agent) throw new AppError('not_found', { message: `no agent ${agentId}` });
      agent.update(changes, this.clock.now());
      await this.references.assert(agent, changed);
      await this.agents.update(agent);
      return agentView(agent);
    });
  }
}
