import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AppError } from '@outreach/core';
import { AnswerErrors, CurrentPrincipal, HumanOnly, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import { CrmConnections, CrmConnectionView } from '../application/crm-connections.service';
import { CrmSegment } from '../domain/crm-provider-info';
import {
  ConnectCrmDto,
  CrmConnectionResponse,
  CrmConnectionsResponse,
  CrmProvidersResponse,
  CrmSegmentResponse,
  FieldMappingsDto,
  FieldMappingsResponse,
} from './crm.dto';

const UPSTREAM = ['crm_upstream_unavailable', 'crm_upstream_error', 'provider_error'] as const;

/** Providers, connections and field mappings (issue 14; decisions.md 31). */
@RequireFeature('crm')
@Controller('crm')
export class CrmController {
  constructor(private readonly connections: CrmConnections) {}

  @RequireScope('crm.view')
  @Get('providers')
  @ApiOperation({ summary: 'The CRMs and shops a workspace can connect (slug, authType, webhooks, capabilities)' })
  @ApiOkResponse({ type: CrmProvidersResponse })
  providers(): CrmProvidersResponse {
    return { providers: this.connections.catalogue() };
  }

  @RequireScope('crm.edit')
  @Post('connections')
  @Raises('unknown_crm', 'provider_not_api_key', 'invalid_credentials', 'crm_resource_not_found', ...UPSTREAM)
  @ApiOperation({ summary: 'Connect an API-key CRM: the credentials are checked with the provider, then stored sealed' })
  @ApiCreatedResponse({ type: CrmConnectionResponse })
  connect(@CurrentPrincipal() p: Principal, @Body() body: ConnectCrmDto): Promise<CrmConnectionView> {
    return this.connections.connect(p.workspaceId, body.slug, body.credentials);
  }

  @RequireScope('crm.edit')
  @HumanOnly()
  @Post('oauth/:slug')
  @ApiOperation({ summary: 'Connect an OAuth CRM (Pipedrive): a signed-in person only; API keys get 403 api_key_not_allowed' })
  connectOAuth(): never {
    throw new AppError('api_key_not_allowed');
  }

  @RequireScope('crm.view')
  @Get('connections')
  @ApiOperation({ summary: "The workspace's ACTIVE CRM connections" })
  @ApiOkResponse({ type: CrmConnectionsResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<{ connections: CrmConnectionView[] }> {
    return { connections: await this.connections.list(p.workspaceId) };
  }

  @RequireScope('crm.view')
  @Get('connections/:id')
  @Raises('crm_connection_not_found')
  @AnswerErrors({ crm_connection_not_found: 404 })
  @ApiOperation({ summary: 'One CRM connection (also a DISCONNECTED one)' })
  @ApiOkResponse({ type: CrmConnectionResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<CrmConnectionView> {
    return this.connections.get(p.workspaceId, id);
  }

  @RequireScope('crm.edit')
  @Delete('connections/:id')
  @HttpCode(204)
  @Raises('crm_connection_not_found', 'crm_connection_not_active')
  @AnswerErrors({ crm_connection_not_found: 404 })
  @ApiOperation({ summary: 'Disconnect: the connection becomes DISCONNECTED and its credentials are dropped' })
  @ApiNoContentResponse()
  async disconnect(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.connections.disconnect(p.workspaceId, id);
  }

  @RequireScope('crm.view')
  @Get('connections/:id/mappings')
  @Raises('crm_connection_not_found')
  @AnswerErrors({ crm_connection_not_found: 404 })
  @ApiOperation({ summary: "The connection's field mappings ([]: the provider's defaults)" })
  @ApiOkResponse({ type: FieldMappingsResponse })
  async mappings(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<FieldMappingsResponse> {
    return { mappings: await this.connections.mappings(p.workspaceId, id) };
  }

  @RequireScope('crm.edit')
  @Put('connections/:id/mappings')
  @Raises('crm_connection_not_found', 'crm_connection_not_active', 'invalid_mapping_source', 'invalid_mapping_target')
  @AnswerErrors({ crm_connection_not_found: 404 })
  @ApiOperation({ summary: 'Replace the field mappings: CRM field → phone, name, altPhone or fields.<key> (a contact variable)' })
  @ApiOkResponse({ type: FieldMappingsResponse })
  async setMappings(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: FieldMappingsDto): Promise<FieldMappingsResponse> {
    return { mappings: await this.connections.setMappings(p.workspaceId, id, body.mappings) };
  }

  @RequireScope('crm.view')
  @Get('connections/:id/segments/:segmentId')
  @Raises('crm_connection_not_found', 'crm_connection_not_active', 'crm_resource_not_found', 'invalid_credentials', ...UPSTREAM)
  @AnswerErrors({ crm_connection_not_found: 404 })
  @ApiOperation({ summary: 'One segment of the CRM (asked live: 404 crm_resource_not_found when the CRM has none)' })
  @ApiOkResponse({ type: CrmSegmentResponse })
  segment(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Param('segmentId') segmentId: string): Promise<CrmSegment> {
    return this.connections.segment(p.workspaceId, id, segmentId);
  }
}
