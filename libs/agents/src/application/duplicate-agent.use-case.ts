import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, Outbox, UnitOfWork } from '@outreach/core';
import { provisionJob } from './agent-jobs';
import { AgentView, agentView } from './agent-view';
import { AgentRepository } from './agent.ports';
import { AgentQuota } from './agent-quota';

const NAME_MAX = 100;

/** POST /agents/{id}/duplicate: a copy named "<name> (copy)", "<name> (copy 2)"…, within the quota. */
@Injectable()
export class DuplicateAgent {
  constructor(
    private readonly agents: AgentRepository,
    private readonly quota: AgentQuota,
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async execute(workspaceId: string, agentId: string): Promise<AgentView> {
    return this.uow.run(async () => {
      const source = await this.agents.findById(workspaceId, agentId);
      if (!source) throw new AppError('not_found', { message: `no agent ${agentId}` });
      await this.quota.reserve(workspaceId);
      const copy = source.duplicate({ id: randomUUID(), name: await this.freeName(workspaceId, source.name), now: this.clock.now() });
      await this.agents.insert(copy);
      await this.outbox.enqueue(provisionJob(copy.id));
      return agentView(copy);
    });
  }

  private async freeName(workspaceId: string, name: string): Promise<string> {
    for (let n = 1; ; n++) {
      const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
      const candidate = name.slice(0, NAME_MAX - suffix.length) + suffix;
      if (!(await this.agents.nameExists(workspaceId, candidate))) return candidate;
    }
  }
}
