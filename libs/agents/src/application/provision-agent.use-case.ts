import { Injectable, Logger } from '@nestjs/common';
import { Clock, isUuid, UnitOfWork } from '@outreach/core';
import { AgentRepository, VoiceProvider } from './agent.ports';

/**
 * Worker job: sets a PROVISIONING agent up at the voice provider and marks it ACTIVE. Idempotent:
 * an agent already ACTIVE, archived or deleted is left alone, so a replayed job does nothing.
 */
@Injectable()
export class ProvisionAgent {
  private readonly logger = new Logger('ProvisionAgent');

  constructor(
    private readonly agents: AgentRepository,
    private readonly provider: VoiceProvider,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(agentId: string): Promise<void> {
    if (!isUuid(agentId)) return;
    const agent = await this.agents.findAnyById(agentId);
    if (!agent || agent.status !== 'PROVISIONING') return;
    const settings = agent.settings();
    // The provider call happens outside the transaction: no row lock is held over the network.
    const { providerAgentId } = await this.provider.provision({
      id: agent.id,
      workspaceId: agent.workspaceId,
      name: settings.name,
      voice: settings.voice,
      settings,
    });
    await this.uow.run(async () => {
      const current = await this.agents.findAnyById(agentId, { lock: true });
      if (current?.markProvisioned(providerAgentId, this.clock.now())) {
        await this.agents.update(current);
        this.logger.log(`agent ${agentId} provisioned as ${providerAgentId}`);
      }
    });
  }

  /**
   * Worker job after an edit (decisions.md 27.4): an ACTIVE agent's current config is pushed to the
   * provider that hosts it (Vapi: PATCH /assistant/{id}). A PROVISIONING agent is left to its
   * provisioning, which reads the config when it runs; an archived or deleted one to nobody.
   */
  async sync(agentId: string): Promise<void> {
    if (!isUuid(agentId)) return;
    const agent = await this.agents.findAnyById(agentId);
    if (!agent || agent.status !== 'ACTIVE') return;
    const settings = agent.settings();
    await this.provider.provision({ id: agent.id, workspaceId: agent.workspaceId, name: settings.name, voice: settings.voice, settings });
  }
}
