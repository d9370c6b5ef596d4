import { Injectable } from '@nestjs/common';
import { CustomFunctions } from '@outreach/functions';
import { VoiceAgentHosting, VoiceAgentSpec } from '@outreach/telephony';
import { AgentCatalogue, VoiceProvider } from '../application/agent.ports';
import type { AgentSettings } from '../domain/agent.types';
import { SandboxVoiceProvider } from './sandbox-voice-provider';

/**
 * Provisioning through the voice-AI platforms of the workspace's carriers (decisions.md 27.4): the
 * agent's prompt, greeting, voice, transfer, voicemail, end-call and custom functions become an
 * assistant at every enabled Vapi carrier (created, or updated when it exists). A workspace with no
 * such carrier keeps the sandbox's id. A provider failure rejects: the job is retried and the
 * agent stays PROVISIONING (409 agent_not_provisioned meanwhile).
 */
@Injectable()
export class HostedVoiceProvider extends VoiceProvider {
  private readonly sandbox = new SandboxVoiceProvider();

  constructor(
    private readonly hosting: VoiceAgentHosting,
    private readonly catalogue: AgentCatalogue,
    private readonly functions: CustomFunctions,
  ) {
    super();
  }

  async provision(agent: { id: string; workspaceId: string; settings: AgentSettings }): Promise<{ providerAgentId: string }> {
    const hosted = await this.hosting.provision(await this.spec(agent.id, agent.workspaceId, agent.settings));
    return hosted ? { providerAgentId: hosted } : this.sandbox.provision(agent);
  }

  hostsAgents(workspaceId: string): Promise<boolean> {
    return this.hosting.hosts(workspaceId);
  }

  private async spec(agentId: string, workspaceId: string, s: AgentSettings): Promise<VoiceAgentSpec> {
    const functions: VoiceAgentSpec['functions'] = [];
    for (const id of s.abilities?.functionIds ?? []) {
      const fn = await this.functions.get(workspaceId, id).catch(() => null); // deleted meanwhile: left out
      if (fn) functions.push({ name: fn.name, description: fn.description, parameters: fn.parameters, url: fn.url });
    }
    // The catalogue's voices are the sandbox's: Vapi is given its own voice of that name.
    const entry = this.catalogue.voice(s.voice);
    const voice = !entry || entry.provider === 'sandbox' ? { provider: 'vapi', id: entry?.name ?? s.voice } : { provider: entry.provider, id: entry.id };
    const transferNumber = s.transferEnabled ? (s.transferNumber ?? s.abilities?.transfer?.number ?? null) : null;
    return {
      agentId,
      workspaceId,
      name: s.name,
      prompt: s.prompt,
      greeting: s.greeting,
      voice,
      maxCallDurationSecs: s.maxCallDurationSecs,
      enableRecording: s.enableRecording,
      endCall: { enabled: s.endCallEnabled, message: s.endCallMessage },
      voicemail: { detection: s.voicemailDetectionEnabled, message: s.voicemailMessage },
      transfer: transferNumber ? { number: transferNumber, message: s.transferMessage } : null,
      functions,
    };
  }
}
