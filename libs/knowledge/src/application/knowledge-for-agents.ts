import { Injectable } from '@nestjs/common';
import type { AgentKnowledgeSource, UnusableDocument } from '@outreach/agents';
import { isUuid } from '@outreach/core';
import { dictionaryPromptLines } from '../domain/dictionary';
import { isProvisioned } from '../domain/document';
import { DictionaryRepository, DocumentRepository } from './knowledge.ports';

/** Characters of one document's text an agent's compiled prompt carries, and of all its documents. */
export const PROMPT_CHARS_PER_DOCUMENT = 4000;
export const PROMPT_CHARS_TOTAL = 12000;

/**
 * The agents module's view of knowledge (decisions.md 39.9): which knowledgeDocIds are real,
 * provisioned documents, and the text of the READY ones for the agent's compiled prompt (each
 * document's first chunks, in the order the agent lists them, within the budgets above).
 */
@Injectable()
export class KnowledgeForAgents implements AgentKnowledgeSource {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly dictionaries: DictionaryRepository,
  ) {}

  async unusableDocuments(workspaceId: string, ids: readonly string[]): Promise<Map<string, UnusableDocument>> {
    const found = new Map((await this.documents.findMany(workspaceId, ids.filter(isUuid))).map((d) => [d.id, d]));
    const unusable = new Map<string, UnusableDocument>();
    for (const id of ids) {
      const doc = found.get(id);
      if (!doc) unusable.set(id, 'missing');
      else if (!isProvisioned(doc.status)) unusable.set(id, 'not_provisioned');
    }
    return unusable;
  }

  /** The agent's dictionaries (decisions.md 39.10), then its documents' text. */
  async promptSection(workspaceId: string, agentId: string, documentIds: readonly string[]): Promise<string | null> {
    const sections = [await this.dictionarySection(workspaceId, agentId), await this.documentSection(workspaceId, documentIds)].filter((x): x is string => x !== null);
    return sections.length ? sections.join('\n\n') : null;
  }

  private async dictionarySection(workspaceId: string, agentId: string): Promise<string | null> {
    const dictionaries = isUuid(agentId) ? await this.dictionaries.forAgent(workspaceId, agentId) : [];
    const pronunciations = dictionaries.filter((d) => d.kind === 'pronunciation').flatMap(dictionaryPromptLines);
    const terms = dictionaries.filter((d) => d.kind === 'key_terms').flatMap(dictionaryPromptLines);
    const parts = [
      ...(pronunciations.length ? [`## Pronunciations\n${pronunciations.map((l) => `- ${l}`).join('\n')}`] : []),
      ...(terms.length ? [`## Key terms (recognise and use exactly)\n${terms.join(', ')}`] : []),
    ];
    return parts.length ? parts.join('\n\n') : null;
  }

  private async documentSection(workspaceId: string, documentIds: readonly string[]): Promise<string | null> {
    const ids = documentIds.filter(isUuid);
    if (ids.length === 0) return null;
    const docs = new Map((await this.documents.findMany(workspaceId, ids)).filter((d) => d.status === 'READY').map((d) => [d.id, d]));
    const texts = await this.documents.leadingText(workspaceId, [...docs.keys()], PROMPT_CHARS_PER_DOCUMENT);
    const parts: string[] = [];
    let budget = PROMPT_CHARS_TOTAL;
    for (const id of ids) {
      const doc = docs.get(id);
      const text = texts.get(id);
      if (!doc || !text || budget <= 0) continue;
      const piece = text.slice(0, budget);
      budget -= piece.length;
      parts.push(`### ${doc.name}\n${piece}`);
    }
    return parts.length ? `## Knowledge (answer from these documents; if they do not say, say you do not know)\n\n${parts.join('\n\n')}` : null;
  }
}
