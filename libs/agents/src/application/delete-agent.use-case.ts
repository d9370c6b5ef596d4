import { Injectable } from '@nestjs/common';
import { AppError, Clock, UnitOfWork } from '@outreach/core';
import { AgentReferenceRegistry } from './agent-reference-registry';
import { AgentView, agentView } from './agent-view';
import { AgentRepository } from './agent.ports';

/** DELETE /agents/{id}: archive (kept, read-only), or `permanent` removal unless something uses it. */
@Injectable()
export class DeleteAgent {
  constructor(
    private readonly agents: AgentRepository,
    private readonly references: AgentReferenceRegistry,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async archive(workspaceId: string, agentId: string): Promise<AgentView> {
    return this.uow.run(async () => {
      const agent = await this.agents.findById(workspaceId, agentId, { lock: true });
      if (!agent) throw new AppError('not_found', { message: `no agent ${agentId}` });
      agent.archive(this.clock.now());
      await this.agents.update(agent);
      return agentView(agent);
    });
  }

  async deletePermanently(workspaceId: string, agentId: string): Promise<void> {
    await this.uow.run(async () => {
      const agent = await this.agents.findById(workspaceId, agentId, { lock: true });
      if (!agent) throw new AppError('not_found', { message: `no agent ${agentId}` });
      if (await this.references.isReferenced(workspaceId, agentId)) {
        throw new AppError('in_use', { message: 'campaigns reference this agent; archive it instead' });
      }
      await this.agents.delete(workspaceId, agentId);
    });
  }
}
