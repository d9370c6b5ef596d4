import { Injectable } from '@nestjs/common';
import { AgentDirectory } from '@outreach/agents';
import { AppError } from '@outreach/core';
import { cleanSuggestedPrompt, MAX_METRIC_PROMPT_CHARS } from '../../domain/metric-prompt';
import { CampaignDrafts } from '../assist.ports';
import { isLlmError, Llm } from '../llm/llm.port';

/** The campaign being edited but not saved yet (the client's form). */
export interface MetricPromptDraft {
  name?: string;
  goal?: string;
  description?: string;
  agentId?: string;
}

export interface SuggestMetricPromptInput {
  campaignId?: string;
  key: string;
  label: string;
  allowedValues: string[];
  draft?: MetricPromptDraft;
}

const SYSTEM_PROMPT = [
  'You write the evaluation prompt of one metric of an outbound call campaign.',
  'The prompt tells an analyst model how to judge a call transcript and pick exactly one of the allowed values.',
  'Answer with the prompt text only, in at most 5,000 characters.',
].join(' ');

/**
 * POST /campaigns/suggest-metric-prompt: a prompt for one evaluation metric, written by the model
 * from the metric and the campaign (a saved one by campaignId, or the draft being edited). Checks
 * in order: 404 campaign_not_found → 400 agent_not_found (the draft's agent, else the campaign's)
 * → the model: 502 suggestion_failed when it fails or answers nothing, 422 rewrite_too_long over
 * 5,000 characters.
 */
@Injectable()
export class SuggestMetricPrompt {
  constructor(
    private readonly llm: Llm,
    private readonly drafts: CampaignDrafts,
    private readonly agents: AgentDirectory,
  ) {}

  async execute(workspaceId: string, input: SuggestMetricPromptInput): Promise<{ prompt: string }> {
    const campaign = input.campaignId !== undefined ? await this.drafts.require(workspaceId, input.campaignId) : null;
    const agentId = input.draft?.agentId ?? campaign?.agentId ?? null;
    const agent = agentId !== null ? await this.agents.find(workspaceId, agentId) : null;
    if (agentId !== null && !agent) throw new AppError('agent_not_found', { message: `no agent ${agentId}` });

    const context = {
      key: input.key,
      label: input.label,
      allowedValues: input.allowedValues,
      campaign: {
        name: input.draft?.name ?? campaign?.name ?? null,
        goal: input.draft?.goal ?? campaign?.goal ?? null,
        description: input.draft?.description ?? campaign?.description ?? null,
      },
      agent: agent ? { name: agent.name, agentType: agent.agentType } : null,
    };
    let answer: string;
    try {
      answer = await this.llm.complete(
        [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: JSON.stringify(context) },
        ],
        { purpose: 'metric_prompt', temperature: 0.3 },
      );
    } catch (error) {
      if (!isLlmError(error)) throw error;
      throw new AppError('suggestion_failed', { message: `no suggestion: ${error.message}`, upstreamStatus: error.upstreamStatus, detail: { reason: error.reason } });
    }
    const prompt = cleanSuggestedPrompt(answer);
    if (prompt === '') throw new AppError('suggestion_failed', { message: 'the model answered with an empty prompt' });
    if (prompt.length > MAX_METRIC_PROMPT_CHARS) {
      throw new AppError('rewrite_too_long', { message: `the suggested prompt has ${prompt.length} characters (at most ${MAX_METRIC_PROMPT_CHARS})` });
    }
    return { prompt };
  }
}
