import { Injectable } from '@nestjs/common';
import { FunctionDirectory } from '@outreach/functions';
import { AppError, ValidationIssue } from '@outreach/core';
import { Agent } from '../domain/agent.aggregate';
import { AgentSettings } from '../domain/agent.types';
import { AgentCatalogue } from './agent.ports';
import { AgentKnowledge } from './agent-knowledge';

/**
 * Checks what an agent names outside itself: a catalogue voice (400 invalid_body at `voice`), a
 * catalogue background sound (404 background_audio_not_found) and the workspace's custom
 * functions (400 invalid_body at the offending `functionIds` item). Only the fields being set are
 * checked, so a function deleted later does not block unrelated edits. Knowledge documents
 * (`knowledgeDocIds`) must be documents of the workspace (400 invalid_body at the item) whose upload
 * was confirmed (400 document_not_provisioned), as the knowledge module answers (decisions.md 39.9).
 */
@Injectable()
export class AgentReferenceChecks {
  constructor(
    private readonly catalogue: AgentCatalogue,
    private readonly functions: FunctionDirectory,
    private readonly knowledge: AgentKnowledge,
  ) {}

  async assert(agent: Agent, changed: ReadonlyArray<keyof AgentSettings | string>): Promise<void> {
    const s = agent.settings();
    const issues: ValidationIssue[] = [];
    if (changed.includes('voice') && !this.catalogue.voice(s.voice)) {
      issues.push({ path: 'voice', message: `unknown voice ${JSON.stringify(s.voice)}; see GET /voices` });
    }
    if (changed.includes('abilities') || changed.includes('studioConfig')) {
      const refs = agent
        .functionReferences()
        .filter((r) => changed.includes(r.path.startsWith('studioConfig.') ? 'studioConfig' : 'abilities'));
      if (refs.length > 0) {
        const existing = await this.functions.existing(agent.workspaceId, [...new Set(refs.map((r) => r.id))]);
        for (const ref of refs) {
          if (!existing.has(ref.id)) issues.push({ path: ref.path, message: `no custom function ${JSON.stringify(ref.id)} in this workspace` });
        }
      }
    }
    const docRefs =
      changed.includes('abilities') || changed.includes('studioConfig')
        ? agent.knowledgeReferences().filter((r) => changed.includes(r.path.startsWith('studioConfig.') ? 'studioConfig' : 'abilities'))
        : [];
    const unusable = await this.knowledge.unusableDocuments(agent.workspaceId, [...new Set(docRefs.map((r) => r.id))]);
    for (const ref of docRefs) {
      if (unusable.get(ref.id) === 'missing') issues.push({ path: ref.path, message: `no knowledge document ${JSON.stringify(ref.id)} in this workspace` });
    }
    if (issues.length > 0) throw new AppError('invalid_body', { issues });
    const pending = docRefs.find((r) => unusable.get(r.id) === 'not_provisioned');
    if (pending) {
      throw new AppError('document_not_provisioned', { message: `${pending.path}: document ${pending.id} has not been provisioned (POST /documents/${pending.id}/provision)` });
    }
    if (changed.includes('backgroundAudioId') && s.backgroundAudioId !== null && !this.catalogue.backgroundAudioById(s.backgroundAudioId)) {
      throw new AppError('background_audio_not_found', {
        message: `no background audio ${JSON.stringify(s.backgroundAudioId)}; see GET /background-audio`,
      });
    }
  }
}
