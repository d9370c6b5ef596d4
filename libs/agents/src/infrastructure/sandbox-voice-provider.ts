import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { VoiceProvider } from '../application/agent.ports';

/**
 * The default voice provider (decisions.md 11.5, 16.12, like a payment API's test mode): provisioning succeeds
 * at once and the provider id is derived from the agent id, so replays give the same answer.
 */
@Injectable()
export class SandboxVoiceProvider extends VoiceProvider {
  async provision(agent: { id: string }): Promise<{ providerAgentId: string }> {
    const digest = createHash('sha256').update(`sandbox-agent:${agent.id}`).digest('hex');
    return { providerAgentId: `sbx_agent_${digest.slice(0, 24)}` };
  }

  async hostsAgents(): Promise<boolean> {
    return false;
  }
}
