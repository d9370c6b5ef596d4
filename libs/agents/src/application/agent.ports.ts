import { Agent } from '../domain/agent.aggregate';
import type { AgentSettings } from '../domain/agent.types';

export abstract class AgentRepository {
  /** Throws AppError name_taken when the workspace has an agent of that name (any case). */
  abstract insert(agent: Agent): Promise<void>;
  /** Throws AppError name_taken like insert. */
  abstract update(agent: Agent): Promise<void>;
  abstract delete(workspaceId: string, agentId: string): Promise<void>;
  /** Null for unknown, malformed or another workspace's ids. `lock` takes a row lock (in a transaction). */
  abstract findById(workspaceId: string, agentId: string, options?: { lock?: boolean }): Promise<Agent | null>;
  /** For the worker, which knows only the id (payloads carry ids). */
  abstract findAnyById(agentId: string, options?: { lock?: boolean }): Promise<Agent | null>;
  abstract listByWorkspace(workspaceId: string): Promise<Agent[]>;
  /** Agents that count towards the quota (not archived). */
  abstract countLive(workspaceId: string): Promise<number>;
  abstract nameExists(workspaceId: string, name: string): Promise<boolean>;
  /** Serialises agent creation per workspace until the transaction ends (quota checks). */
  abstract lockWorkspace(workspaceId: string): Promise<void>;
}

/** The voice platform that hosts agents at call time. Sandbox by default; Vapi for a workspace with a Vapi carrier (decisions.md 27.4). */
export abstract class VoiceProvider {
  /** Sets the agent up (or brings it up to date); returns the provider's id for it. Idempotent per agent id. */
  abstract provision(agent: { id: string; workspaceId: string; name: string; voice: string; settings: AgentSettings }): Promise<{ providerAgentId: string }>;
  /** Whether the workspace's agents live at a provider that keeps their config (an edit must be pushed there). */
  abstract hostsAgents(workspaceId: string): Promise<boolean>;
}

export interface VoiceEntry {
  id: string;
  name: string;
  gender: 'female' | 'male' | 'neutral';
  language: string;
  accent: string;
  provider: string;
  /** Whether GET /voices/{id}/preview has a sample (else 501 preview_not_supported). */
  previewAvailable: boolean;
}

export interface BackgroundAudioEntry {
  id: string;
  name: string;
  description: string;
  defaultVolume: number;
}

/** The voices and background sounds agents may use. */
export abstract class AgentCatalogue {
  abstract voices(): VoiceEntry[];
  abstract voice(id: string): VoiceEntry | null;
  /** A short audio sample of the voice, or null when it has none. */
  abstract preview(id: string): Promise<{ contentType: string; audio: Buffer } | null>;
  abstract backgroundAudio(): BackgroundAudioEntry[];
  abstract backgroundAudioById(id: string): BackgroundAudioEntry | null;
}
