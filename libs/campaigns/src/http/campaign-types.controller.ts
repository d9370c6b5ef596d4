import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScope } from '@outreach/platform';
import { CampaignTypesService, CampaignTypeView } from '../application/campaign-types.service';
import { CampaignTypeListResponse, CampaignTypeResponse, CreateCampaignTypeDto, UpdateCampaignTypeDto } from './dto/misc.dto';

@ApiTags('campaign types')
@Controller('campaign-types')
export class CampaignTypesController {
  constructor(private readonly types: CampaignTypesService) {}

  @RequireScope('campaign_types.edit')
  @Post()
  @ApiCreatedResponse({ type: CampaignTypeResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateCampaignTypeDto): Promise<CampaignTypeView> {
    return this.types.create(p.workspaceId, body);
  }

  /** The workspace's own types (isOwn: true) and the platform types. */
  @RequireScope('campaign_types.view')
  @Get()
  @ApiOkResponse({ type: CampaignTypeListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<CampaignTypeListResponse> {
    return { campaignTypes: await this.types.list(p.workspaceId) };
  }

  @RequireScope('campaign_types.view')
  @Get(':id')
  @ApiOkResponse({ type: CampaignTypeResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<CampaignTypeView> {
    return this.types.get(p.workspaceId, id);
  }

  @RequireScope('campaign_types.edit')
  @Patch(':id')
  @ApiOkResponse({ type: CampaignTypeResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateCampaignTypeDto): Promise<CampaignTypeView> {
    return this.types.update(p.workspaceId, id, body);
  }

  /** Archives the type: campaigns using it keep its keys; it can no longer be picked. */
  @RequireScope('campaign_types.edit')
  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async delete(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.types.archive(p.workspaceId, id);
  }
}
