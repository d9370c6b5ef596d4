import { AppError, ValidationIssue } from '@outreach/core';
import {
  AGENT_DEFAULTS,
  AgentSettings,
  AgentStatus,
  FlowGraph,
  TRANSFER_NUMBER_PATTERN,
} from './agent.types';
import { flowGraphIssues } from './flow-graph';
import { assembleAgentPrompt, compileSystemPrompt } from './prompt-assembly';
import { placeholdersIn } from './template-variables';

/** Longest prompt the contract allows (spec Limits: agent prompt 1-128000); the DTO uses it too. */
export const PROMPT_MAX_LENGTH = 128000;

/** Where the prompt came from: sent by the client, or assembled from the studio config. */
export type PromptSource = 'custom' | 'studio';

export interface AgentProps extends AgentSettings {
  id: string;
  workspaceId: string;
  status: AgentStatus;
  promptSource: PromptSource;
  providerAgentId: string | null;
  provisionedAt: Date | null;
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Create input: name and voice are required; prompt may be assembled from studioConfig. */
export type NewAgentInput = Partial<AgentSettings> & Pick<AgentSettings, 'name' | 'voice'>;

type AgentEvent = 'provisioned' | 'edit' | 'archive';

/**
 * The agent state machine as a table. PROVISIONING → ACTIVE when the voice provider has set the
 * agent up; both can be archived; archiving again is a no-op. Archived agents are read-only.
 */
const TRANSITIONS: Record<AgentStatus, Partial<Record<AgentEvent, AgentStatus>>> = {
  PROVISIONING: { provisioned: 'ACTIVE', edit: 'PROVISIONING', archive: 'archived' },
  ACTIVE: { edit: 'ACTIVE', archive: 'archived' },
  archived: { archive: 'archived' },
};

/** A voice agent of one workspace: its settings, its status, and the rules that bind them. */
export class Agent {
  private constructor(private props: AgentProps) {}

  static create(input: { id: string; workspaceId: string; fields: NewAgentInput; now: Date }): Agent {
    const { fields } = input;
    const settings: AgentSettings = {
      ...AGENT_DEFAULTS,
      ...definedOnly(fields),
      name: fields.name,
      voice: fields.voice,
      prompt: fields.prompt ?? '',
    };
    let promptSource: PromptSource = 'custom';
    if (fields.prompt === undefined) {
      if (!fields.studioConfig) {
        throw new AppError('prompt_required', { message: 'send prompt, or a studioConfig to assemble it from' });
      }
      settings.prompt = assembleAgentPrompt(fields.studioConfig);
      promptSource = 'studio';
    }
    assertInvariants(settings);
    return new Agent({
      ...settings,
      id: input.id,
      workspaceId: input.workspaceId,
      status: 'PROVISIONING',
      promptSource,
      providerAgentId: null,
      provisionedAt: null,
      archivedAt: null,
      createdAt: input.now,
      updatedAt: input.now,
    });
  }

  static restore(props: AgentProps): Agent {
    return new Agent({ ...props });
  }

  get id(): string {
    return this.props.id;
  }

  get workspaceId(): string {
    return this.props.workspaceId;
  }

  get status(): AgentStatus {
    return this.props.status;
  }

  get name(): string {
    return this.props.name;
  }

  /**
   * Applies a partial update (PATCH): top-level fields replace the stored ones, nested objects
   * are replaced whole. An assembled prompt follows a new studio config unless a prompt is sent.
   */
  update(changes: Partial<AgentSettings>, now: Date): void {
    const next = this.transition('edit');
    const settings: AgentSettings = { ...this.settings(), ...definedOnly(changes) };
    let promptSource = this.props.promptSource;
    if (changes.prompt !== undefined) {
      promptSource = 'custom';
    } else if (changes.studioConfig && promptSource === 'studio') {
      settings.prompt = assembleAgentPrompt(changes.studioConfig);
    }
    assertInvariants(settings);
    this.props = { ...this.props, ...settings, promptSource, status: next, updatedAt: now };
  }

  /** Idempotent: false when there was nothing to do (already ACTIVE, or archived meanwhile). */
  markProvisioned(providerAgentId: string, now: Date): boolean {
    if (this.props.status !== 'PROVISIONING') return false;
    this.props.status = this.transition('provisioned');
    this.props.providerAgentId = providerAgentId;
    this.props.provisionedAt = now;
    this.props.updatedAt = now;
    return true;
  }

  archive(now: Date): void {
    this.props.status = this.transition('archive');
    if (!this.props.archivedAt) {
      this.props.archivedAt = now;
      this.props.updatedAt = now;
    }
  }

  /** A new agent with the same settings, going through provisioning again. */
  duplicate(input: { id: string; name: string; now: Date }): Agent {
    return new Agent({
      ...structuredClone(this.props),
      id: input.id,
      name: input.name,
      status: 'PROVISIONING',
      providerAgentId: null,
      provisionedAt: null,
      archivedAt: null,
      createdAt: input.now,
      updatedAt: input.now,
    });
  }

  /** `{{name}}` placeholders used by the prompt, the greeting, the messages and the welcome message. */
  variables(): string[] {
    const p = this.props;
    return placeholdersIn([
      p.prompt,
      p.greeting,
      p.endCallMessage,
      p.voicemailMessage,
      p.transferMessage,
      p.studioConfig?.welcomeMessage,
    ]);
  }

  /** Function ids the abilities reference, with where each sits in the body. */
  functionReferences(): Array<{ path: string; id: string }> {
    const refs: Array<{ path: string; id: string }> = [];
    const collect = (ids: string[] | undefined, at: string) => ids?.forEach((id, i) => refs.push({ path: `${at}.${i}`, id }));
    collect(this.props.abilities?.functionIds, 'abilities.functionIds');
    collect(this.props.studioConfig?.abilities?.functionIds, 'studioConfig.abilities.functionIds');
    return refs;
  }

  /** Knowledge document ids the abilities reference, with where each sits in the body. */
  knowledgeReferences(): Array<{ path: string; id: string }> {
    const refs: Array<{ path: string; id: string }> = [];
    const collect = (ids: string[] | undefined, at: string) => ids?.forEach((id, i) => refs.push({ path: `${at}.${i}`, id }));
    collect(this.props.abilities?.knowledgeDocIds, 'abilities.knowledgeDocIds');
    collect(this.props.studioConfig?.abilities?.knowledgeDocIds, 'studioConfig.abilities.knowledgeDocIds');
    return refs;
  }

  /** The assembled system prompt for the voice runtime. */
  compiledPrompt(): string {
    return compileSystemPrompt({ ...this.props, promptAssembled: this.props.promptSource === 'studio' });
  }

  settings(): AgentSettings {
    const { id: _id, workspaceId: _ws, status: _s, promptSource: _ps, providerAgentId: _p, provisionedAt: _pa, archivedAt: _aa, createdAt: _c, updatedAt: _u, ...settings } =
      this.props;
    return settings;
  }

  toProps(): AgentProps {
    return { ...this.props };
  }

  private transition(event: AgentEvent): AgentStatus {
    const next = TRANSITIONS[this.props.status][event];
    if (!next) {
      throw new AppError('agent_archived', { message: `agent ${this.props.id} is archived and cannot be changed` });
    }
    return next;
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The rules that span fields, checked after every create and update (decisions.md 1.11, 11.7, 11.8 codes). */
function assertInvariants(s: AgentSettings): void {
  const graphIssues: ValidationIssue[] = [];
  const graphs: Array<[FlowGraph | null | undefined, string]> = [
    [s.flowGraph, 'flowGraph'],
    [s.studioConfig?.flowGraph, 'studioConfig.flowGraph'],
  ];
  for (const [graph, at] of graphs) if (graph) graphIssues.push(...flowGraphIssues(graph, at));
  if (s.prompt.length > PROMPT_MAX_LENGTH) {
    graphIssues.push({ path: 'studioConfig', message: `the assembled prompt exceeds ${PROMPT_MAX_LENGTH} characters; send prompt` });
  }
  if (graphIssues.length > 0) throw new AppError('invalid_body', { issues: graphIssues });

  const numbers: Array<[string | null | undefined, string]> = [
    [s.transferNumber, 'transferNumber'],
    [s.abilities?.transfer?.number, 'abilities.transfer.number'],
    [s.studioConfig?.abilities?.transfer?.number, 'studioConfig.abilities.transfer.number'],
  ];
  const badNumbers = numbers
    .filter(([n]) => typeof n === 'string' && !TRANSFER_NUMBER_PATTERN.test(n))
    .map(([, path]) => ({ path, message: 'must be an E.164 number: + followed by 8 to 15 digits' }));
  if (badNumbers.length > 0) throw new AppError('invalid_transfer_number', { issues: badNumbers });

  if (s.transferEnabled && !s.transferNumber) {
    throw new AppError('transfer_number_required', {
      issues: [{ path: 'transferNumber', message: 'transferEnabled needs a transferNumber' }],
    });
  }
}
