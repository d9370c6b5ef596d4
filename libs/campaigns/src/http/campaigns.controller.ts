import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { AnswerErrors, CurrentPrincipal, ErrorCode, Principal, Raises, RequireScope } from '@outreach/platform';
import { CampaignEditing, CampaignWithImport } from '../application/campaign-editing.service';
import { CampaignLifecycle, Requeued } from '../application/campaign-lifecycle.service';
import { ReengageCampaignDto, RequeuedResponse } from './dto/live-actions.dto';
import { CampaignView, CampaignViews } from '../application/campaign-views';
import { CreateCampaignDto, StartCampaignDto, UpdateCampaignDto } from './dto/campaign-body.dto';
import { CampaignListResponse, CampaignResponse, CampaignWithImportResponse } from './dto/campaign-response.dto';
import { ReplaceCustomKeysDto } from './dto/extraction.dto';
import { toCampaignInput } from './campaign-input.mapper';
import { refusalsOf } from '../domain/campaign-state-machine';
import { START_CHECK_CODES } from '../domain/start-checks';

/** What a valid campaign body can still be refused with: its rules, its references, its upload, its name (decisions.md 13.5). */
const CAMPAIGN_BODY_ERRORS: ErrorCode[] = [
  'campaign_type_not_found',
  'journey_campaign_source_unsupported',
  'default_crm_connection_required',
  'reserved_extraction_key',
  'reserved_metric_key',
  'metric_key_collision',
  'agent_not_found',
  'agent_archived',
  'agent_type_not_inbound',
  'inbound_campaign_action_not_supported',
  'workflow_not_found',
  'workflow_not_active',
  'crm_connection_not_found',
  'upload_not_found_or_expired',
  'journey_campaign_contact_cap',
  'excel_mangled_phone',
  'invalid_csv_format',
  'invalid_phone',
  'name_taken',
];

function withImport(result: CampaignWithImport): CampaignWithImportResponse {
  return result.import ? { ...result.campaign, import: result.import } : result.campaign;
}

@Controller()
export class CampaignsController {
  constructor(
    private readonly views: CampaignViews,
    private readonly editing: CampaignEditing,
    private readonly lifecycle: CampaignLifecycle,
  ) {}

  @RequireScope('campaigns.edit')
  @Post('v1/campaigns')
  @AnswerErrors({ agent_not_found: 400, invalid_phone: 400 })
  @Raises(...CAMPAIGN_BODY_ERRORS, 'phone_number_not_in_workspace', 'invalid_request', 'feature_not_available')
  @ApiOperation({ summary: 'Create a DRAFT campaign (optionally importing an upload as its contacts; source INBOUND: an INBOUND agent answering on phoneNumberId)' })
  @ApiCreatedResponse({ type: CampaignWithImportResponse })
  async create(@CurrentPrincipal() p: Principal, @Body() body: CreateCampaignDto): Promise<CampaignWithImportResponse> {
    const { phoneNumberId, ...input } = toCampaignInput(body);
    return withImport(await this.editing.create(p.workspaceId, input, { phoneNumberId }));
  }

  @RequireScope('campaigns.view')
  @Get(['v1/campaigns', 'campaigns'])
  @ApiOperation({ summary: 'All campaigns of the workspace, newest first (unpaginated)' })
  @ApiOkResponse({ type: CampaignListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<CampaignListResponse> {
    return { campaigns: await this.views.list(p.workspaceId) };
  }

  @RequireScope('campaigns.view')
  @Get('v1/campaigns/:id')
  @Raises('campaign_not_found')
  @ApiOperation({ summary: 'One campaign of the workspace' })
  @ApiOkResponse({ type: CampaignResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<CampaignView> {
    return this.views.get(p.workspaceId, id);
  }

  @RequireScope('campaigns.edit')
  @Patch('v1/campaigns/:id')
  @AnswerErrors({ invalid_phone: 400 })
  @Raises('no_fields_to_update', 'campaign_not_found', ...refusalsOf('edit'), 'campaign_source_locked', ...CAMPAIGN_BODY_ERRORS)
  @ApiOperation({ summary: 'Edit a DRAFT, PAUSED or CREDIT_EXHAUSTED campaign (audience fields: DRAFT only)' })
  @ApiOkResponse({ type: CampaignWithImportResponse })
  async update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateCampaignDto): Promise<CampaignWithImportResponse> {
    return withImport(await this.editing.update(p.workspaceId, id, toCampaignInput(body)));
  }

  @RequireScope('campaigns.edit')
  @Delete('campaigns/:id')
  @HttpCode(204)
  @Raises('campaign_not_found', ...refusalsOf('delete'), 'campaign_delete_import_in_progress')
  @ApiOperation({ summary: 'Delete a DRAFT, CANCELED or COMPLETED campaign and its contacts' })
  @ApiNoContentResponse()
  async delete(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.editing.delete(p.workspaceId, id);
  }

  @RequireScope('campaigns.edit')
  @Put('campaigns/:id/custom-keys')
  @Raises('campaign_not_found', ...refusalsOf('replaceCustomKeys'), 'reserved_extraction_key', 'metric_key_collision')
  @ApiOperation({ summary: 'Replace the custom extraction keys of a DRAFT campaign' })
  @ApiOkResponse({ type: CampaignResponse })
  replaceCustomKeys(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: ReplaceCustomKeysDto): Promise<CampaignView> {
    return this.editing.replaceCustomKeys(p.workspaceId, id, body.customExtractionKeys, body.customExtractionKeysMode);
  }

  @RequireScope('campaigns.edit')
  @Post(['campaigns/:id/start', 'v1/campaigns/:id/start'])
  @HttpCode(200)
  @Raises('campaign_not_found', ...refusalsOf('start'), ...START_CHECK_CODES)
  @ApiOperation({ summary: 'DRAFT, PAUSED or CREDIT_EXHAUSTED → RUNNING, after the start checks' })
  @ApiOkResponse({ type: CampaignResponse })
  start(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: StartCampaignDto): Promise<CampaignView> {
    return this.lifecycle.start(p.workspaceId, id, body);
  }

  @RequireScope('campaigns.edit')
  @Post(['campaigns/:id/pause', 'v1/campaigns/:id/pause'])
  @HttpCode(200)
  @Raises(...refusalsOf('pause'))
  @ApiOperation({ summary: 'RUNNING → PAUSED (400 campaign_not_running otherwise, also for unknown ids)' })
  @ApiOkResponse({ type: CampaignResponse })
  pause(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<CampaignView> {
    return this.lifecycle.pause(p.workspaceId, id);
  }

  @RequireScope('campaigns.edit')
  @Post(['campaigns/:id/resume', 'v1/campaigns/:id/resume'])
  @HttpCode(200)
  @Raises('campaign_not_found', ...refusalsOf('resume'), ...START_CHECK_CODES)
  @ApiOperation({ summary: 'PAUSED → RUNNING, after the start checks' })
  @ApiOkResponse({ type: CampaignResponse })
  resume(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: StartCampaignDto): Promise<CampaignView> {
    return this.lifecycle.resume(p.workspaceId, id, body);
  }

  @RequireScope('campaigns.edit')
  @Post(['campaigns/:id/stop', 'v1/campaigns/:id/stop'])
  @HttpCode(200)
  @Raises('campaign_not_found', ...refusalsOf('stop'))
  @ApiOperation({ summary: 'Any unfinished status → CANCELED' })
  @ApiOkResponse({ type: CampaignResponse })
  stop(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<CampaignView> {
    return this.lifecycle.stop(p.workspaceId, id);
  }

  @RequireScope('campaigns.edit')
  @Post(['campaigns/:id/restart', 'v1/campaigns/:id/restart'])
  @HttpCode(200)
  @Raises('campaign_not_found', ...refusalsOf('restart'), ...START_CHECK_CODES)
  @ApiOperation({ summary: 'COMPLETED or CANCELED → RUNNING: FAILED and unreached contacts go back to PENDING' })
  @ApiOkResponse({ type: CampaignResponse })
  restart(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: StartCampaignDto): Promise<CampaignView> {
    return this.lifecycle.restart(p.workspaceId, id, body);
  }

  @RequireScope('campaigns.edit')
  @Post(['campaigns/:id/re-engage', 'v1/campaigns/:id/re-engage'])
  @HttpCode(200)
  @Raises('campaign_not_found', ...refusalsOf('reengage'), ...START_CHECK_CODES)
  @ApiOperation({
    summary:
      "Requeues a segment's finished contacts with a fresh run (RUNNING, PAUSED, CREDIT_EXHAUSTED keep their status; a COMPLETED campaign runs again); else 409 campaign_not_reengageable (docs/decisions.md 35.1)",
  })
  @ApiOkResponse({ type: RequeuedResponse })
  reengage(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: ReengageCampaignDto): Promise<Requeued> {
    return this.lifecycle.reengage(p.workspaceId, id, body.segment);
  }

  @RequireScope('campaigns.edit')
  @Post(['campaigns/:id/finish-interrupted', 'v1/campaigns/:id/finish-interrupted'])
  @HttpCode(200)
  @Raises('campaign_not_found', ...refusalsOf('finishInterrupted'), 'incomplete_retry_disabled', ...START_CHECK_CODES)
  @ApiOperation({
    summary:
      'Calls again the contacts whose last call a person answered but that was cut before incompleteCallSeconds; 409 incomplete_retry_disabled while incompleteRetryEnabled is off (docs/decisions.md 35.2)',
  })
  @ApiOkResponse({ type: RequeuedResponse })
  finishInterrupted(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<Requeued> {
    return this.lifecycle.finishInterrupted(p.workspaceId, id);
  }
}
