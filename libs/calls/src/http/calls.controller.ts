import { Body, Controller, Get, Headers, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { AnswerErrors, CurrentPrincipal, IDEMPOTENCY_KEY_HEADER, Idempotent, Principal, Raises, RequireScope } from '@outreach/platform';
import { AppError } from '@outreach/core';
import { CallReads } from '../application/call-queries';
import { PlaceTestCall } from '../application/place-test-call';
import { StartWebSession } from '../application/start-web-session';
import {
  CallContactResponse,
  CallListResponse,
  CallResponse,
  CampaignActivityResponse,
  ListCallsQuery,
  MetricOverrideResponse,
  OverrideMetricDto,
  PlaceTestCallDto,
  StartWebSessionDto,
  toCallResponse,
  WebSessionResponse,
} from './call.dto';

@ApiExtraModels(MetricOverrideResponse)
@Controller()
export class CallsController {
  constructor(
    private readonly reads: CallReads,
    private readonly testCalls: PlaceTestCall,
    private readonly webSessions: StartWebSession,
  ) {}

  @RequireScope('calls.view')
  @Get('calls')
  @ApiOperation({ summary: 'The workspace calls, newest first (offset/limit with total; filters campaignId, status, outcome, from, to)' })
  @ApiOkResponse({ type: CallListResponse })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListCallsQuery): Promise<CallListResponse> {
    const { items, total } = await this.reads.list(
      p.workspaceId,
      {
        campaignId: q.campaignId,
        status: q.status,
        outcome: q.outcome,
        from: q.from === undefined ? undefined : new Date(q.from),
        to: q.to === undefined ? undefined : new Date(q.to),
      },
      { offset: q.offset ?? 0, limit: q.limit ?? 50 },
    );
    return { items: items.map(toCallResponse), total };
  }

  @RequireScope('calls.edit')
  @Post('calls/test')
  @Idempotent({ reusedStatus: 409 })
  @AnswerErrors({ invalid_phone: 400, agent_not_provisioned: 409 })
  @Raises(
    'agent_not_found',
    'agent_archived',
    'agent_not_provisioned',
    'phone_number_not_found',
    'phone_number_not_in_workspace',
    'sandbox_from_number_not_configured',
    'sandbox_from_number_unavailable',
    'workspace_not_active',
    'activity_frozen',
    'insufficient_credits',
    'do_not_call',
    'invalid_phone',
    'phone_number_released_upstream',
    'phone_number_not_synced',
    'provider_error',
  )
  @ApiOperation({
    summary: 'Place a billed test call from an agent to a number (synchronous); Idempotency-Key required',
    description:
      'Same key + same body → the first answer again (Idempotent-Replayed: true); same key + another body → 409 idempotency_key_reused; ' +
      'same key while the first request runs → 409 idempotency_in_progress with Retry-After: 1.',
  })
  @ApiCreatedResponse({ type: CallResponse })
  async placeTestCall(
    @CurrentPrincipal() p: Principal,
    @Body() body: PlaceTestCallDto,
    @Headers(IDEMPOTENCY_KEY_HEADER.toLowerCase()) idempotencyKey: string,
  ): Promise<CallResponse> {
    const call = await this.testCalls.execute({ workspaceId: p.workspaceId, idempotencyKey, ...body });
    return toCallResponse(call);
  }

  @RequireScope('calls.edit')
  @Post('calls/test/web')
  @AnswerErrors({ agent_not_provisioned: 409 })
  @Raises('agent_not_found', 'agent_archived', 'agent_not_provisioned', 'workspace_not_active', 'activity_frozen', 'web_session_not_supported')
  @ApiOperation({
    summary: 'Open a browser test session with an agent (nothing is placed, recorded or billed)',
    description:
      "The workspace's carriers pick the provider (decisions.md 22.6): without a real carrier the sandbox makes up a session " +
      '(url and token); a workspace on Twilio or Vapi answers 501 web_session_not_supported.',
  })
  @ApiCreatedResponse({ type: WebSessionResponse })
  startWebSession(@CurrentPrincipal() p: Principal, @Body() body: StartWebSessionDto): Promise<WebSessionResponse> {
    return this.webSessions.execute({ workspaceId: p.workspaceId, agentId: body.agentId });
  }

  @RequireScope('calls.view')
  @Get('calls/:id/contact')
  @Raises('call_not_found', 'no_contact_for_call')
  @ApiOperation({ summary: 'The campaign contact a call was placed to (404 call_not_found; 409 no_contact_for_call for a test call or an untaken inbound call)' })
  @ApiOkResponse({ type: CallContactResponse })
  contact(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<CallContactResponse> {
    return this.reads.contactOf(p.workspaceId, id);
  }

  @RequireScope('calls.view')
  @Get('calls/:id')
  @Raises('call_not_found')
  @ApiOperation({ summary: 'One call (404 call_not_found)' })
  @ApiOkResponse({ type: CallResponse })
  async get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<CallResponse> {
    return toCallResponse(await this.reads.get(p.workspaceId, id));
  }

  @RequireScope('calls.edit')
  @Put('calls/:id/metrics/:key')
  @Raises('operator_only')
  @ApiOperation({
    summary: "Override one evaluation metric of a call: reserved for the operator's staff (every API key gets 403 operator_only)",
    description: 'Operators use the CLI: `operator call:set-metric --call ID --key K --value V`.',
  })
  @ApiBody({ type: OverrideMetricDto })
  overrideMetric(): never {
    // API keys are the only HTTP principals, and none of them is the operator's staff.
    throw new AppError('operator_only', { message: 'Overriding call metrics is reserved for the operator (CLI call:set-metric)' });
  }

  @RequireScope('calls.view')
  @Get('campaigns/:id/activity')
  @Raises('campaign_not_found')
  @ApiOperation({ summary: 'The latest 50 calls of a campaign, newest first (a fixed window, not paged)' })
  @ApiOkResponse({ type: CampaignActivityResponse })
  async activity(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<CampaignActivityResponse> {
    return { items: (await this.reads.campaignActivity(p.workspaceId, id)).map(toCallResponse) };
  }
}
