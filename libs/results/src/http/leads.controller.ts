import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { TimelinePage, TimelinePageResponse, TimelineQueryDto } from '@outreach/campaigns';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { answeredError, AnswerErrors, CurrentPrincipal, ErrorStatuses, Principal, Raises, RequireScope } from '@outreach/platform';
import type { Response } from 'express';
import { LeadQueries, LeadView } from '../application/lead-queries';
import { LeadPushResult, PushLead } from '../application/push-lead.use-case';
import { LeadPushBody } from '../application/results.ports';
import { parseLeadBatch, parseLeadPush } from './lead-body.parser';
import { BatchItemResponse, BatchResponse, LeadPushResponse, LeadResponse, PushLeadDto, PushLeadsBatchDoc } from './lead.dto';

/** The lead push answers these codes with 422 (the contract's /v1 form), the push and each batch item alike. */
const LEAD_PUSH_ERRORS: ErrorStatuses = { idempotency_key_required: 422, invalid_body: 422, invalid_phone: 422 };

/** 201 for the push that created the lead; 200 for a replay and for a phone the campaign had. */
const pushStatus = (result: LeadPushResult): 200 | 201 => (result === 'created' ? 201 : 200);

@Controller('v1/campaigns/:campaignId/leads')
export class LeadsController {
  constructor(
    private readonly pushLead: PushLead,
    private readonly leads: LeadQueries,
  ) {}

  @RequireScope('campaigns.edit')
  @Post()
  @AnswerErrors(LEAD_PUSH_ERRORS)
  @Raises('campaign_not_found', 'campaign_not_accepting', 'journey_campaign_live_cap', 'idempotency_in_progress', 'idempotency_key_reused', 'idempotency_key_invalid')
  @ApiOperation({
    summary: 'Push a lead into a RUNNING API campaign; it is dialled at once',
    description:
      'Idempotent by idempotencyKey (per campaign, never expiring): the first push answers 201, a replay of the same lead 200 ' +
      'with the same body; the same key with a different lead → 422 idempotency_key_reused.',
  })
  @ApiBody({ type: PushLeadDto })
  @ApiCreatedResponse({ type: LeadPushResponse })
  @ApiOkResponse({ type: LeadPushResponse, description: 'Replay (or a phone the campaign already had)' })
  async push(
    @CurrentPrincipal() p: Principal,
    @Param('campaignId') campaignId: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LeadPushBody> {
    const input = await parseLeadPush(body);
    const outcome = await this.pushLead.push(p.workspaceId, campaignId, input);
    res.status(pushStatus(outcome.result));
    return outcome.body;
  }

  @RequireScope('campaigns.edit')
  @Post('batch')
  @HttpCode(200)
  @AnswerErrors(LEAD_PUSH_ERRORS)
  @Raises('campaign_not_found', 'campaign_not_accepting')
  @ApiOperation({ summary: 'Push up to 500 leads; each item has its own idempotency and its own result entry' })
  @ApiBody({ type: PushLeadsBatchDoc })
  @ApiOkResponse({ type: BatchResponse })
  async batch(@CurrentPrincipal() p: Principal, @Param('campaignId') campaignId: string, @Body() body: unknown): Promise<BatchResponse> {
    const items = await parseLeadBatch(body);
    const outcomes = await this.pushLead.pushMany(p.workspaceId, campaignId, items);
    const results: BatchItemResponse[] = outcomes.map((o) => {
      if ('outcome' in o) return { index: o.index, status: pushStatus(o.outcome.result), leadId: o.outcome.body.id, lead: o.outcome.body };
      const e = answeredError(o.error, LEAD_PUSH_ERRORS);
      const item: BatchItemResponse = { index: o.index, status: e.status, error: e.code, message: e.message };
      if (e.options.issues) item.issues = e.options.issues;
      if (typeof e.options.extra?.reason === 'string') item.reason = e.options.extra.reason;
      return item;
    });
    return {
      results,
      created: results.filter((r) => r.status === 201).length,
      replayed: results.filter((r) => r.status === 200).length,
      failed: results.filter((r) => r.error !== undefined).length,
    };
  }

  @RequireScope('campaigns.view')
  @Get(':leadId')
  @Raises('campaign_not_found', 'lead_not_found')
  @ApiOperation({ summary: 'A pushed lead, live: status, attempts, and the result id once final' })
  @ApiOkResponse({ type: LeadResponse })
  get(@CurrentPrincipal() p: Principal, @Param('campaignId') campaignId: string, @Param('leadId') leadId: string): Promise<LeadView> {
    return this.leads.get(p.workspaceId, campaignId, leadId);
  }

  @RequireScope('campaigns.view')
  @Get(':leadId/timeline')
  @Raises('campaign_not_found', 'lead_not_found', 'invalid_cursor')
  @ApiOperation({
    summary: "A lead's timeline, oldest first (cursor): created, claimed, skipped (why, until when), attempts, retries, result, webhook",
  })
  @ApiOkResponse({ type: TimelinePageResponse })
  timeline(
    @CurrentPrincipal() p: Principal,
    @Param('campaignId') campaignId: string,
    @Param('leadId') leadId: string,
    @Query() query: TimelineQueryDto,
  ): Promise<TimelinePage> {
    return this.leads.timeline(p.workspaceId, campaignId, leadId, { cursor: query.cursor, limit: query.limit ?? 50 });
  }
}
