import { Body, Controller, HttpCode, Post, Req, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { OptionalFileUploadInterceptor } from '@outreach/campaigns';
import { AnswerErrors, CurrentPrincipal, Principal, Raises, RequireScope } from '@outreach/platform';
import type { Request } from 'express';
import { BriefDraft, DraftCampaignFromBrief } from '../application/briefs/draft-campaign-from-brief.use-case';
import { SuggestMetricPrompt } from '../application/suggestions/suggest-metric-prompt.use-case';
import { BriefDraftResponse, FromBriefDto, FromBriefFormDoc, MetricPromptResponse, SuggestMetricPromptDto } from './assist.dto';

/** Campaign drafting help: a campaign from a brief, a metric prompt from a metric. */
@Controller('campaigns')
export class CampaignAssistController {
  constructor(
    private readonly briefs: DraftCampaignFromBrief,
    private readonly suggestions: SuggestMetricPrompt,
  ) {}

  @RequireScope('campaigns.edit')
  @Post('from-brief')
  @UseInterceptors(OptionalFileUploadInterceptor)
  @AnswerErrors({ agent_not_found: 400 })
  @Raises(
    'file_too_large',
    'upload_error',
    'upload_failed',
    'unsupported_brief_type',
    'brief_required',
    'brief_unusable',
    'agent_not_found',
    'agent_archived',
    'suggestion_failed',
  )
  @ApiOperation({
    summary: 'Draft a campaign from a brief: a PDF, text or Markdown file (multipart "file") or briefText',
    description:
      'The model proposes the name, goal, description, extraction keys and evaluation metrics of a DRAFT VOICE/CSV campaign ' +
      '(briefText, briefFileName and briefUploadedAt set) and an outline for the agent prompt. Send multipart/form-data ' +
      '(file, briefText, agentId) or JSON (briefText, agentId).',
  })
  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiBody({ type: FromBriefFormDoc })
  @ApiCreatedResponse({ type: BriefDraftResponse })
  fromBrief(@CurrentPrincipal() p: Principal, @Body() body: FromBriefDto, @Req() req: Request): Promise<BriefDraft> {
    const file = req.file ? { buffer: req.file.buffer, fileName: req.file.originalname, mimeType: req.file.mimetype } : undefined;
    return this.briefs.execute(p.workspaceId, { file, briefText: body.briefText, agentId: body.agentId });
  }

  @RequireScope('campaigns.edit')
  @Post('suggest-metric-prompt')
  @HttpCode(200)
  @AnswerErrors({ agent_not_found: 400 })
  @Raises('campaign_not_found', 'agent_not_found', 'suggestion_failed', 'rewrite_too_long')
  @ApiOperation({
    summary: 'Suggest the evaluation prompt of a metric (for a saved campaign by campaignId, or the draft being edited)',
    description: 'A prompt over 5,000 characters is refused with 422 rewrite_too_long; a failing model answers 502 suggestion_failed.',
  })
  @ApiOkResponse({ type: MetricPromptResponse })
  suggestMetricPrompt(@CurrentPrincipal() p: Principal, @Body() body: SuggestMetricPromptDto): Promise<MetricPromptResponse> {
    return this.suggestions.execute(p.workspaceId, body);
  }
}
