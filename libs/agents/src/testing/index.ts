// In-memory fakes of the agents module's ports, for use-case specs (no Nest, no database). Other
// modules' specs and fakes import this file by relative path; production code never does.
import { AppError } from '@outreach/core';
import { FunctionDirectory } from '@outreach/functions';
import { InMemoryFunctionRepository } from '../../../functions/src/testing';
import { FixedClock, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import { inMemoryWorkspaceAdministration } from '../../../workspaces/src/testing';
import { AgentQuota } from '../application/agent-quota';
import { AgentReferenceChecks } from '../application/agent-reference-checks';
import { AgentKnowledge } from '../application/agent-knowledge';
import { AgentCatalogue, AgentRepository, BackgroundAudioEntry, VoiceEntry, VoiceProvider } from '../application/agent.ports';
import { Agent, AgentProps, NewAgentInput } from '../domain/agent.aggregate';

/**
 * Agents by id, with the port's rules: names unique per workspace in any case (name_taken), reads
 * scoped to the workspace, copies in and out (an aggregate changed but not saved stays unsaved).
 * `lockedWorkspaces` records lockWorkspace calls, so a spec can assert the quota was serialised.
 */
export class InMemoryAgentRepository extends AgentRepository {
  readonly rows = new Map<string, AgentProps>();
  readonly lockedWorkspaces: string[] = [];

  async insert(agent: Agent): Promise<void> {
    const props = agent.toProps();
    if (this.rows.has(props.id)) throw new Error(`agent ${props.id} exists`);
    this.assertNameFree(props);
    this.rows.set(props.id, structuredClone(props));
  }

  async update(agent: Agent): Promise<void> {
    const props = agent.toProps();
    if (!this.rows.has(props.id)) throw new Error(`no agent ${props.id} to update`);
    this.assertNameFree(props);
    this.rows.set(props.id, structuredClone(props));
  }

  async delete(workspaceId: string, agentId: string): Promise<void> {
    if (this.rows.get(agentId)?.workspaceId === workspaceId) this.rows.delete(agentId);
  }

  async findById(workspaceId: string, agentId: string): Promise<Agent | null> {
    const props = this.rows.get(agentId);
    return props && props.workspaceId === workspaceId ? Agent.restore(structuredClone(props)) : null;
  }

  async findAnyById(agentId: string): Promise<Agent | null> {
    const props = this.rows.get(agentId);
    return props ? Agent.restore(structuredClone(props)) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<Agent[]> {
    return [...this.rows.values()]
      .filter((p) => p.workspaceId === workspaceId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map((p) => Agent.restore(structuredClone(p)));
  }

  async countLive(workspaceId: string): Promise<number> {
    return [...this.rows.values()].filter((p) => p.workspaceId === workspaceId && p.status !== 'archived').length;
  }

  async nameExists(workspaceId: string, name: string): Promise<boolean> {
    const lower = name.toLowerCase();
    return [...this.rows.values()].some((p) => p.workspaceId === workspaceId && p.name.toLowerCase() === lower);
  }

  async lockWorkspace(workspaceId: string): Promise<void> {
    this.lockedWorkspaces.push(workspaceId);
  }

  /** Stores an agent built through the aggregate (so it is valid) and returns its props. */
  async seed(input: { id: string; workspaceId: string; fields?: Partial<NewAgentInput>; now?: Date; status?: 'ACTIVE' | 'archived' }): Promise<AgentProps> {
    const now = input.now ?? new Date('2026-01-01T00:00:00Z');
    const agent = Agent.create({ id: input.id, workspaceId: input.workspaceId, now, fields: { name: 'Maya', voice: 'aria', prompt: 'Be helpful.', ...input.fields } });
    if (input.status === 'ACTIVE' || input.status === 'archived') agent.markProvisioned(`provider-${input.id}`, now);
    if (input.status === 'archived') agent.archive(now);
    await this.insert(agent);
    return agent.toProps();
  }

  private assertNameFree(props: AgentProps): void {
    const name = props.name.toLowerCase();
    const clash = [...this.rows.values()].some((p) => p.workspaceId === props.workspaceId && p.id !== props.id && p.name.toLowerCase() === name);
    if (clash) {
      throw new AppError('name_taken', {
        message: `an agent named ${JSON.stringify(props.name)} exists in this workspace`,
        issues: [{ path: 'name', message: 'already used by another agent of the workspace' }],
      });
    }
  }
}

/** A small voice and background-audio catalogue; `previews` holds the samples (voice id → audio). */
export class InMemoryAgentCatalogue extends AgentCatalogue {
  readonly voiceEntries: VoiceEntry[] = [
    { id: 'aria', name: 'Aria', gender: 'female', language: 'en-US', accent: 'American', provider: 'sandbox', previewAvailable: true },
    { id: 'sam', name: 'Sam', gender: 'neutral', language: 'en-US', accent: 'American', provider: 'sandbox', previewAvailable: false },
  ];
  readonly backgroundEntries: BackgroundAudioEntry[] = [{ id: 'office', name: 'Office', description: 'Office murmur', defaultVolume: 0.3 }];
  readonly previews = new Map<string, { contentType: string; audio: Buffer }>([['aria', { contentType: 'audio/wav', audio: Buffer.from('RIFF-aria') }]]);

  voices(): VoiceEntry[] {
    return this.voiceEntries.map((v) => ({ ...v }));
  }

  voice(id: string): VoiceEntry | null {
    const found = this.voiceEntries.find((v) => v.id === id);
    return found ? { ...found } : null;
  }

  async preview(id: string): Promise<{ contentType: string; audio: Buffer } | null> {
    return this.previews.get(id) ?? null;
  }

  backgroundAudio(): BackgroundAudioEntry[] {
    return this.backgroundEntries.map((b) => ({ ...b }));
  }

  backgroundAudioById(id: string): BackgroundAudioEntry | null {
    const found = this.backgroundEntries.find((b) => b.id === id);
    return found ? { ...found } : null;
  }
}

/**
 * A voice provider that records every provision request and answers `provider-<agent id>`.
 * `beforeReply` runs before the answer (to simulate a concurrent change or a failure).
 */
export class RecordingVoiceProvider extends VoiceProvider {
  readonly requests: Array<{ id: string; workspaceId: string; name: string; voice: string }> = [];
  beforeReply: () => Promise<void> = async () => {};

  async provision(agent: { id: string; workspaceId: string; name: string; voice: string }): Promise<{ providerAgentId: string }> {
    this.requests.push({ id: agent.id, workspaceId: agent.workspaceId, name: agent.name, voice: agent.voice });
    await this.beforeReply();
    return { providerAgentId: `provider-${agent.id}` };
  }

  /** Whether hostsAgents answers true (a provider that keeps agents' config). */
  hosting = false;

  async hostsAgents(): Promise<boolean> {
    return this.hosting;
  }
}


/** The real AgentReferenceChecks over a catalogue and an in-memory function repository. */
export function agentReferenceChecks(catalogue: AgentCatalogue, functions: InMemoryFunctionRepository): AgentReferenceChecks {
  return new AgentReferenceChecks(catalogue, new FunctionDirectory(functions), new AgentKnowledge());
}

/**
 * Everything the agents use cases need, faked: agents, catalogue, the workspaces' administration
 * (seed one with `seedWorkspace(testbed.workspaces.workspaces, …)`), custom functions, a unit of
 * work, an outbox and a clock at 2026-03-01T09:00:00Z.
 */
export function agentsTestbed() {
  const clock = new FixedClock(new Date('2026-03-01T09:00:00Z'));
  const agents = new InMemoryAgentRepository();
  const catalogue = new InMemoryAgentCatalogue();
  const functions = new InMemoryFunctionRepository();
  const workspaces = inMemoryWorkspaceAdministration({ clock });
  return {
    clock,
    agents,
    catalogue,
    functions,
    workspaces,
    uow: new RollbackUnitOfWork(),
    outbox: new RecordingOutbox(),
    quota: new AgentQuota(agents, workspaces.administration),
    references: agentReferenceChecks(catalogue, functions),
  };
}

export * from './in-memory-agent-directory';
