import { Injectable } from '@nestjs/common';
import { AppError } from '@outreach/core';
import { PhoneNumberAdministration, PhoneNumberView } from '@outreach/telephony';
import { AgentDirectory } from './agent-directory.port';

/**
 * PUT /phone-numbers/{id}/inbound-agent (decisions.md 36.1): the INBOUND agent that answers calls to
 * a workspace number, or none (agentId null). Order: the number (404 phone_number_not_found) → the
 * agent (400 agent_not_found, 400 agent_archived, 400 agent_type_not_inbound) → the number is set
 * up at its provider (409 phone_number_not_synced). The agents module hosts it because telephony
 * cannot see agents (agents → telephony); the number's side is telephony's.
 */
@Injectable()
export class AssignInboundNumber {
  constructor(
    private readonly agents: AgentDirectory,
    private readonly numbers: PhoneNumberAdministration,
  ) {}

  async execute(workspaceId: string, numberId: string, agentId: string | null): Promise<PhoneNumberView> {
    await this.numbers.require(workspaceId, numberId);
    if (agentId !== null) {
      const agent = await this.agents.find(workspaceId, agentId);
      if (!agent) throw new AppError('agent_not_found', { message: `no agent ${agentId}` });
      if (agent.status === 'archived') throw new AppError('agent_archived', { message: `agent ${agentId} is archived` });
      if (agent.agentType !== 'INBOUND') throw new AppError('agent_type_not_inbound', { message: `agent ${agentId} is an ${agent.agentType} agent` });
    }
    return this.numbers.assignInboundAgent(workspaceId, numberId, agentId);
  }
}
