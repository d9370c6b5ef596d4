import { Injectable } from '@nestjs/common';
import { FunctionDirectory } from '@outreach/functions';
import { AppError, ValidationIssue } from '@outreach/core';
import { Agent } from '../domain/agent.aggregate';
import { AgentSettings } from '../domain/agent.types';
import { AgentCatalogue } from './agent.ports';

/**
 * Checks what an agent names outside itself: a catalogue voice (400 invalid_body at `voice`), a
 * catalogue background sound (404 background_audio_not_found) and the workspace's custom
 * functions (400 invalid_body at the offending `functionIds` item). Only the fields being set are
 * checked, so a function deleted later does not block unrelated edits.
 */
@Injectable()
export class AgentReferenceChecks {
  constructor(
    private readonly catalogue: AgentCatalogue,
    private readonly functions: FunctionDirectory,
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
    if (issues.length > 0) throw new AppError('invalid_body', { issues });
    if (changed.includes('backgroundAudioId') && s.backgroundAudioId !== null && !this.catalogue.backgroundAudioById(s.backgroundAudioId)) {
      throw new AppError('background_audio_not_found', {
        message: `no background audio ${JSON.stringify(s.backgroundAudioId)}; see GET /background-audio`,
      });
    }
  }
}
