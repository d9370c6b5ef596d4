import { Injectable } from '@nestjs/common';
import { AppError, Clock, Outbox, UnitOfWork } from '@outreach/core';
import { AgentSettings } from '../domain/agent.types';
import { AgentReferenceChecks } from './agent-reference-checks';
import { AgentView, agentView } from './agent-view';
import { syncJob } from './agent-jobs';
import { AgentRepository, VoiceProvider } from './agent.ports';

/**
 * PATCH /agents/{id}: partial, at least one field; a refused change leaves the agent untouched. An
 * ACTIVE agent of a workspace whose provider keeps agents' config (Vapi) gets a sync job with the
 * change, so the provider's copy follows (decisions.md 27.4).
 */
@Injectable()
export class UpdateAgent {
  constructor(
    private readonly agents: AgentRepository,
    private readonly references: AgentReferenceChecks,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly provider: VoiceProvider,
    private readonly outbox: Outbox,
  ) {}

  async execute(workspaceId: string, agentId: string, changes: Partial<AgentSettings>): Promise<AgentView> {
    const changed = Object.keys(changes).filter((k) => changes[k as keyof AgentSettings] !== undefined);
    if (changed.length === 0) throw new AppError('no_fields_to_update', { message: 'send at least one agent field' });
    const hosted = await this.provider.hostsAgents(workspaceId);
    return this.uow.run(async () => {
      const agent = await this.agents.findById(workspaceId, agentId, { lock: true });
      if (!agent) throw new AppError('not_found', { message: `no agent ${agentId}` });
      agent.update(changes, this.clock.now());
      await this.references.assert(agent, changed);
      await this.agents.update(agent);
      const view = agentView(agent);
      if (hosted && view.status === 'ACTIVE') await this.outbox.enqueue(syncJob(agentId, this.clock.now()));
      return view;
    });
  }
}
