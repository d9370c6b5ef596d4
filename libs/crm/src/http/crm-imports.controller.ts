import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AnswerErrors, CurrentPrincipal, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import { CrmImports, CrmImportView } from '../application/crm-imports.service';
import { CreateCrmImportDto, CrmImportResponse } from './crm.dto';

/** CRM imports into a campaign (a worker job: pending → running → completed | failed). */
@RequireFeature('crm')
@Controller('campaigns/:id/crm-imports')
export class CrmImportsController {
  constructor(private readonly imports: CrmImports) {}

  @RequireScope('crm.edit')
  @Post()
  @HttpCode(202)
  @Raises(
    'campaign_not_found',
    'crm_connection_not_found',
    'campaign_not_in_draft',
    'crm_connection_not_active',
    'crm_resource_not_found',
    'invalid_credentials',
    'crm_upstream_unavailable',
    'crm_upstream_error',
    'provider_error',
  )
  @AnswerErrors({ crm_connection_not_found: 404 })
  @ApiOperation({ summary: 'Import a CRM segment (or all its contacts) into a DRAFT campaign or a live CRM_WEBHOOK campaign; poll the import' })
  @ApiAcceptedResponse({ type: CrmImportResponse })
  create(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: CreateCrmImportDto): Promise<CrmImportView> {
    return this.imports.request(p.workspaceId, id, { connectionId: body.connectionId, segmentId: body.segmentId });
  }

  @RequireScope('crm.view')
  @Get(':importId')
  @Raises('campaign_not_found', 'crm_import_not_found')
  @ApiOperation({ summary: 'One CRM import: status, progress and counts' })
  @ApiOkResponse({ type: CrmImportResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Param('importId') importId: string): Promise<CrmImportView> {
    return this.imports.get(p.workspaceId, id, importId);
  }
}
