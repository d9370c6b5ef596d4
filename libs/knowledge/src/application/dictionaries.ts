import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '@outreach/agents';
import { AppError, Clock, isUuid } from '@outreach/core';
import { DictionaryEntry, DictionaryKind, DictionaryProps } from '../domain/dictionary';
import { DictionaryRepository } from './knowledge.ports';

export interface DictionaryView {
  id: string;
  name: string;
  kind: DictionaryKind;
  entries: DictionaryEntry[];
  createdAt: Date;
  updatedAt: Date;
}

function toView(d: DictionaryProps): DictionaryView {
  const { workspaceId: _ws, ...view } = d;
  return view;
}

/** A pronunciation dictionary's entries each say how to pronounce their term (400 invalid_body otherwise). */
function assertEntries(kind: DictionaryKind, entries: DictionaryEntry[]): void {
  const issues = entries.flatMap((e, i) => (kind === 'pronunciation' && !e.pronunciation?.trim() ? [{ path: `entries.${i}.pronunciation`, message: 'required in a pronunciation dictionary' }] : []));
  if (issues.length) throw new AppError('invalid_body', { issues });
}

/** Workspace term lists (decisions.md 39.10): pronunciations or key terms, referenced by agents. */
@Injectable()
export class Dictionaries {
  constructor(
    private readonly dictionaries: DictionaryRepository,
    private readonly agents: AgentDirectory,
    private readonly clock: Clock,
  ) {}

  /** PUT /agents/{id}/dictionaries: 404 not_found (the agents' code) for another workspace's agent, 404 dictionary_not_found for the first unknown id. */
  async setForAgent(workspaceId: string, agentId: string, dictionaryIds: string[]): Promise<DictionaryView[]> {
    await this.requireAgent(workspaceId, agentId);
    const unique = [...new Set(dictionaryIds)];
    for (const id of unique) await this.require(workspaceId, id);
    await this.dictionaries.setForAgent(workspaceId, agentId, unique);
    return this.forAgent(workspaceId, agentId);
  }

  async forAgent(workspaceId: string, agentId: string): Promise<DictionaryView[]> {
    await this.requireAgent(workspaceId, agentId);
    return (await this.dictionaries.forAgent(workspaceId, agentId)).map(toView);
  }

  private async requireAgent(workspaceId: string, agentId: string): Promise<void> {
    if (!(await this.agents.find(workspaceId, agentId))) throw new AppError('not_found', { message: `no agent ${agentId}` });
  }

  async create(workspaceId: string, input: { name: string; kind: DictionaryKind; entries: DictionaryEntry[] }): Promise<DictionaryView> {
    assertEntries(input.kind, input.entries);
    const now = this.clock.now();
    const d: DictionaryProps = { id: randomUUID(), workspaceId, name: input.name.trim(), kind: input.kind, entries: input.entries, createdAt: now, updatedAt: now };
    await this.dictionaries.insert(d);
    return toView(d);
  }

  async update(workspaceId: string, id: string, input: { name?: string; entries?: DictionaryEntry[] }): Promise<DictionaryView> {
    if (Object.values(input).every((v) => v === undefined)) throw new AppError('no_fields_to_update', { message: 'send at least one dictionary field' });
    const d = await this.require(workspaceId, id);
    if (input.entries) assertEntries(d.kind, input.entries);
    const next: DictionaryProps = { ...d, name: input.name?.trim() ?? d.name, entries: input.entries ?? d.entries, updatedAt: this.clock.now() };
    await this.dictionaries.update(next);
    return toView(next);
  }

  async list(workspaceId: string): Promise<DictionaryView[]> {
    return (await this.dictionaries.list(workspaceId)).map(toView);
  }

  async get(workspaceId: string, id: string): Promise<DictionaryView> {
    return toView(await this.require(workspaceId, id));
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    await this.dictionaries.delete((await this.require(workspaceId, id)).id);
  }

  async require(workspaceId: string, id: string): Promise<DictionaryProps> {
    const d = isUuid(id) ? await this.dictionaries.find(workspaceId, id) : null;
    if (!d) throw new AppError('dictionary_not_found', { message: `no dictionary ${id}` });
    return d;
  }
}
