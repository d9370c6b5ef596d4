import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '@outreach/agents';
import type { CampaignView } from '@outreach/campaigns';
import { AppError, Clock } from '@outreach/core';
import { BRIEF_CHARS_FOR_MODEL, BRIEF_CHARS_STORED, briefFormatOf, BriefFormat, cleanBriefText } from '../../domain/brief';
import { CampaignDrafts } from '../assist.ports';
import { isLlmError, Llm } from '../llm/llm.port';
import { CampaignProposal, readProposal } from './campaign-proposal';

/** Reads the text of a PDF; throws when the file is not a readable PDF. */
export abstract class PdfTextReader {
  abstract text(bytes: Uint8Array): Promise<string>;
}

export interface BriefFile {
  buffer: Buffer;
  fileName: string;
  mimeType: string;
}

export interface BriefInput {
  file?: BriefFile;
  briefText?: string;
  agentId?: string;
}

export interface BriefDraft {
  campaign: CampaignView;
  proposal: CampaignProposal;
}

const SYSTEM_PROMPT = [
  'You draft outbound voice campaigns from a client brief.',
  'Answer with one JSON object and nothing else:',
  '{"name": string (at most 100 characters), "goal": string (at most 500), "description": string (at most 280),',
  '"agentPromptOutline": [string, …] (the steps the calling agent follows),',
  '"extractionKeys": [{"name": identifier, "type": "string"|"number"|"integer"|"boolean"|"array"|"date"|"datetime", "description": string}],',
  '"metrics": [{"key": identifier, "label": string, "allowedValues": [string, …], "prompt": string}]}.',
  'Use only what the brief says; keep names short and specific.',
].join(' ');

/**
 * POST /campaigns/from-brief: the brief (a PDF, text or Markdown file, or text) → a DRAFT campaign
 * with the name, goal, extraction keys and metrics the model proposes, briefText, briefFileName
 * and briefUploadedAt set. Checks in order (decisions.md 1.9): 415 unsupported_brief_type → 422
 * brief_unusable for a file that cannot be read → 400 brief_required (no text) → 400
 * agent_not_found / agent_archived → the model (502 suggestion_failed when it fails, 422
 * brief_unusable when its answer is no campaign) → the campaigns module's create.
 */
@Injectable()
export class DraftCampaignFromBrief {
  constructor(
    private readonly llm: Llm,
    private readonly pdf: PdfTextReader,
    private readonly drafts: CampaignDrafts,
    private readonly agents: AgentDirectory,
    private readonly clock: Clock,
  ) {}

  async execute(workspaceId: string, input: BriefInput): Promise<BriefDraft> {
    const format = input.file ? briefFormatOf(input.file.fileName, input.file.mimeType) : null;
    if (input.file && format === null) {
      throw new AppError('unsupported_brief_type', {
        message: `${JSON.stringify(input.file.fileName)} (${input.file.mimeType}) is not a PDF, text or Markdown file`,
      });
    }
    const fileText = input.file && format ? await this.readFile(input.file, format) : '';
    const brief = cleanBriefText([fileText, input.briefText ?? ''].filter((part) => part.trim() !== '').join('\n\n'));
    if (brief === '') {
      throw new AppError('brief_required', {
        message: input.file ? `${JSON.stringify(input.file.fileName)} holds no text, and no briefText was sent` : 'send a brief file or briefText',
      });
    }
    if (input.agentId !== undefined) {
      const agent = await this.agents.find(workspaceId, input.agentId);
      if (!agent) throw new AppError('agent_not_found', { message: `no agent ${input.agentId}` });
      if (agent.status === 'archived') throw new AppError('agent_archived');
    }

    let answer: string;
    try {
      answer = await this.llm.complete(
        [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: brief.slice(0, BRIEF_CHARS_FOR_MODEL) },
        ],
        { purpose: 'campaign_draft', json: true, temperature: 0.2 },
      );
    } catch (error) {
      if (!isLlmError(error)) throw error;
      throw new AppError('suggestion_failed', { message: `no draft: ${error.message}`, upstreamStatus: error.upstreamStatus, detail: { reason: error.reason } });
    }
    const proposal = readProposal(answer);
    if (!proposal) throw new AppError('brief_unusable', { message: 'the model could not draft a campaign (a name and a goal) from this brief' });

    const campaign = await this.drafts.create(workspaceId, {
      name: proposal.name,
      goal: proposal.goal,
      description: proposal.description,
      agentId: input.agentId ?? null,
      briefText: brief.slice(0, BRIEF_CHARS_STORED),
      briefFileName: input.file ? input.file.fileName.slice(0, 255) : null,
      briefUploadedAt: input.file ? this.clock.now().toISOString() : null,
      customExtractionKeys: proposal.extractionKeys,
      evaluationMetrics: proposal.metrics,
    });
    return { campaign, proposal };
  }

  private async readFile(file: BriefFile, format: BriefFormat): Promise<string> {
    if (file.buffer.length === 0) return '';
    if (format === 'pdf') {
      try {
        return await this.pdf.text(new Uint8Array(file.buffer));
      } catch (error) {
        throw new AppError('brief_unusable', {
          message: `${JSON.stringify(file.fileName)} could not be read as a PDF (${error instanceof Error ? error.message : String(error)})`,
        });
      }
    }
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(file.buffer).replace(/^\uFEFF/, '');
    } catch {
      throw new AppError('brief_unusable', { message: `${JSON.stringify(file.fileName)} is not UTF-8 text` });
    }
  }
}
