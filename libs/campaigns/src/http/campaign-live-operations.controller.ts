import { Body, Controller, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireScope } from '@outreach/platform';
import { CampaignLiveEdits } from '../application/campaign-live-edits.service';
import { CampaignRemessage } from '../application/campaign-remessage.service';
import { CampaignView } from '../application/campaign-views';
import { OutreachRule } from '../domain/campaign-settings';
import { refusalsOf } from '../domain/campaign-state-machine';
import { toCampaignInput } from './campaign-input.mapper';
import { CampaignResponse } from './dto/campaign-response.dto';
import { MetricsEditDto, OutreachEditDto, OutreachRuleDto, RemessageDto, RemessageResponse, ScheduleEditDto } from './dto/live-edit.dto';

/**
 * Operations on a live campaign (decisions.md 34): the live edits — schedule, outreach and
 * evaluation metrics of a campaign in DRAFT, RUNNING, PAUSED or CREDIT_EXHAUSTED (else 409
 * campaign_not_editable), each taking effect at the next dispatch run; PATCH keeps its own rules
 * (decisions.md 13.1) — and remessage.
 */
@Controller()
export class CampaignLiveOperationsController {
  constructor(
    private readonly liveEdits: CampaignLiveEdits,
    private readonly remessages: CampaignRemessage,
  ) {}

  @RequireScope('campaigns.edit')
  @Post('campaigns/:id/remessage')
  @HttpCode(202)
  @Raises('campaign_not_found', 'campaign_channel_not_message_followup', ...refusalsOf('remessage'), 'contact_not_found')
  @ApiOperation({
    summary: 'Send a RUNNING campaign\'s message leg again (its WhatsApp outreach template; an EMAIL campaign\'s default email template): to the contacts named, or to every COMPLETED and FAILED one (never HAND_OFF or DO_NOT_CALL)',
  })
  @ApiAcceptedResponse({ type: RemessageResponse })
  remessage(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: RemessageDto): Promise<RemessageResponse> {
    return this.remessages.request(p.workspaceId, id, body.contactIds);
  }

  @RequireScope('campaigns.edit')
  @Put('campaigns/:id/schedule')
  @Raises('no_fields_to_update', 'campaign_not_found', ...refusalsOf('editSchedule'))
  @ApiOperation({ summary: 'Change when a campaign dials and sends (window, dial days, schedule, daily caps), RUNNING included' })
  @ApiOkResponse({ type: CampaignResponse })
  schedule(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: ScheduleEditDto): Promise<CampaignView> {
    return this.liveEdits.edit(p.workspaceId, id, 'editSchedule', toCampaignInput(body));
  }

  @RequireScope('campaigns.edit')
  @Put('campaigns/:id/outreach')
  @Raises(
    'no_fields_to_update',
    'campaign_not_found',
    ...refusalsOf('editOutreach'),
    'campaign_channel_switch_not_supported',
    'campaign_channel_has_no_rules',
    'campaign_channel_needs_template',
    'outreach_template_not_approved',
    'outreach_template_needs_runtime_context',
  )
  @ApiOperation({ summary: 'Replace a campaign\'s outreach rules and message templates, RUNNING included' })
  @ApiOkResponse({ type: CampaignResponse })
  outreach(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: OutreachEditDto): Promise<CampaignView> {
    const { outreachRules, channel, ...templates } = body;
    return this.liveEdits.edit(p.workspaceId, id, 'editOutreach', {
      ...toCampaignInput(templates),
      ...(channel !== undefined ? { channel } : {}),
      ...(outreachRules !== undefined ? { outreachRules: outreachRules.map(toOutreachRule) } : {}),
    });
  }

  @RequireScope('campaigns.edit')
  @Put('campaigns/:id/metrics')
  @Raises('no_fields_to_update', 'campaign_not_found', ...refusalsOf('editMetrics'), 'reserved_metric_key', 'metric_key_collision')
  @ApiOperation({ summary: 'Replace a campaign\'s evaluation metrics, RUNNING included (calls analysed after the edit use them)' })
  @ApiOkResponse({ type: CampaignResponse })
  metrics(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: MetricsEditDto): Promise<CampaignView> {
    return this.liveEdits.edit(p.workspaceId, id, 'editMetrics', toCampaignInput(body));
  }
}

function toOutreachRule(rule: OutreachRuleDto): OutreachRule {
  return {
    trigger: rule.trigger,
    afterDays: rule.afterDays ?? 0,
    condition: { kind: rule.condition.kind, describe: rule.condition.describe },
    conditions: (rule.conditions ?? []).map((c) => ({ kind: c.kind, describe: c.describe })),
    match: rule.match,
    action: rule.action,
  };
}
