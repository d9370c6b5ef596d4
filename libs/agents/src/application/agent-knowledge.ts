import { Injectable } from '@nestjs/common';

/** Why a knowledge document an agent names cannot be used. */
export type UnusableDocument = 'missing' | 'not_provisioned';

/**
 * What the knowledge module answers about an agent's knowledge (decisions.md 39.9). It registers
 * itself at start-up (the dependency points from knowledge to agents only, as campaigns' reference
 * checks do); without it, knowledgeDocIds are kept unchecked and add nothing to the prompt.
 */
export interface AgentKnowledgeSource {
  /** The ids among `ids` that are not usable documents of the workspace, with why. */
  unusableDocuments(workspaceId: string, ids: readonly string[]): Promise<Map<string, UnusableDocument>>;
  /** The text the agent's compiled prompt gets from its knowledge documents, or null when there is none. */
  promptSection(workspaceId: string, agentId: string, documentIds: readonly string[]): Promise<string | null>;
}

@Injectable()
export class AgentKnowledge {
  private source: AgentKnowledgeSource | null = null;

  register(source: AgentKnowledgeSource): void {
    this.source = source;
  }

  unusableDocuments(workspaceId: string, ids: readonly string[]): Promise<Map<string, UnusableDocument>> {
    return this.source && ids.length ? this.source.unusableDocuments(workspaceId, ids) : Promise.resolve(new Map());
  }

  promptSection(workspaceId: string, agentId: string, documentIds: readonly string[]): Promise<string | null> {
    return this.source ? this.source.promptSection(workspaceId, agentId, documentIds) : Promise.resolve(null);
  }
}
