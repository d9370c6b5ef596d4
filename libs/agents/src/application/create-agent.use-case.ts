import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock, Outbox, UnitOfWork } from '@outreach/core';
import { Agent, NewAgentInput } from '../domain/agent.aggregate';
import { provisionJob } from './agent-jobs';
import { AgentReferenceChecks } from './agent-reference-checks';
import { AgentView, agentView } from './agent-view';
import { AgentRepository } from './agent.ports';
import { AgentQuota } from './agent-quota';

/**
 * POST /agents: a new agent in PROVISIONING, within the workspace's agent quota, with a provision
 * job written to the outbox in the same transaction.
 */
@Injectable()
export class CreateAgent {
  constructor(
    private readonly agents: AgentRepository,
    private readonly references: AgentReferenceChecks,
    private readonly quota: AgentQuota,
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async execute(workspaceId: string, fields: NewAgentInput): Promise<AgentView> {
    const agent = Agent.create({ id: randomUUID(), workspaceId, fields, now: this.clock.now() });
    await this.references.assert(agent, Object.keys(fields));
    await this.uow.run(async () => {
      await this.quota.reserve(workspaceId);
      await this.agents.insert(agent);
      await this.outbox.enqueue(provisionJob(agent.id));
    });
    return agentView(agent);
  }
}
