import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireScope } from '@outreach/platform';
import { CampaignTypesService, CampaignTypeView } from '../application/campaign-types.service';
import { CampaignTypeListResponse, CampaignTypeResponse, CreateCampaignTypeDto, UpdateCampaignTypeDto } from './dto/misc.dto';

@Controller('campaign-types')
export class CampaignTypesController {
  constructor(private readonly types: CampaignTypesService) {}

  @RequireScope('campaign_types.edit')
  @Post()
  @Raises('reserved_extraction_key', 'name_taken')
  @ApiOperation({ summary: 'Create a workspace campaign type: a reusable set of extraction keys' })
  @ApiCreatedResponse({ type: CampaignTypeResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateCampaignTypeDto): Promise<CampaignTypeView> {
    return this.types.create(p.workspaceId, body);
  }

  /** The workspace's own types (isOwn: true) and the platform types. */
  @RequireScope('campaign_types.view')
  @Get()
  @ApiOperation({ summary: 'The workspace types (isOwn: true) and the platform types (unpaginated)' })
  @ApiOkResponse({ type: CampaignTypeListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<CampaignTypeListResponse> {
    return { campaignTypes: await this.types.list(p.workspaceId) };
  }

  @RequireScope('campaign_types.view')
  @Get(':id')
  @Raises('not_found')
  @ApiOperation({ summary: 'One campaign type' })
  @ApiOkResponse({ type: CampaignTypeResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<CampaignTypeView> {
    return this.types.get(p.workspaceId, id);
  }

  @RequireScope('campaign_types.edit')
  @Patch(':id')
  @Raises('no_fields_to_update', 'not_found', 'forbidden', 'reserved_extraction_key', 'name_taken')
  @ApiOperation({ summary: 'Change a workspace campaign type (platform types are read-only: 403 forbidden)' })
  @ApiOkResponse({ type: CampaignTypeResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateCampaignTypeDto): Promise<CampaignTypeView> {
    return this.types.update(p.workspaceId, id, body);
  }

  /** Archives the type: campaigns using it keep its keys; it can no longer be picked. */
  @RequireScope('campaign_types.edit')
  @Delete(':id')
  @HttpCode(204)
  @Raises('not_found', 'forbidden')
  @ApiOperation({ summary: 'Archive a workspace campaign type: campaigns using it keep its keys' })
  @ApiNoContentResponse()
  async delete(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.types.archive(p.workspaceId, id);
  }
}
