import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import { ResultWebhooks, WebhookEndpointView, WebhookEndpointWithSecret } from '../application/result-webhooks.service';
import { DeliveryView } from '../application/results.ports';
import { Page } from '../domain/page-cursor';
import {
  CreateResultWebhookDto,
  DeliveriesPage,
  DeliveriesQueryDto,
  DeliveryResponse,
  ResultWebhookResponse,
  ResultWebhooksResponse,
  ResultWebhookWithSecretResponse,
  UpdateResultWebhookDto,
} from './result-webhook.dto';

@RequireFeature('api_results', 'api_results_not_enabled')
@Controller('result-webhooks')
export class ResultWebhooksController {
  constructor(private readonly webhooks: ResultWebhooks) {}

  // Declared before ':id' so /deliveries is not read as an endpoint id.
  @RequireScope('campaigns.view')
  @Get('deliveries')
  @Raises('invalid_cursor')
  @ApiOperation({ summary: 'Deliveries, newest first (cursor), each with every attempt' })
  @ApiOkResponse({ type: DeliveriesPage })
  deliveries(@CurrentPrincipal() p: Principal, @Query() q: DeliveriesQueryDto): Promise<Page<DeliveryView>> {
    return this.webhooks.deliveriesPage(p.workspaceId, { ...q, limit: q.limit ?? 50 });
  }

  @RequireScope('campaigns.edit')
  @Post('deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @Raises('not_found', 'invalid_request')
  @ApiOperation({ summary: 'Send a delivery again now (a fresh retry schedule; its history is kept)' })
  @ApiAcceptedResponse({ type: DeliveryResponse })
  redeliver(@CurrentPrincipal() p: Principal, @Param('deliveryId') id: string): Promise<DeliveryView> {
    return this.webhooks.redeliver(p.workspaceId, id);
  }

  @RequireScope('campaigns.edit')
  @Post()
  @Raises('invalid_request')
  @ApiOperation({ summary: 'Add a result webhook; its signing secret is shown once' })
  @ApiCreatedResponse({ type: ResultWebhookWithSecretResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateResultWebhookDto): Promise<WebhookEndpointWithSecret> {
    return this.webhooks.create(p.workspaceId, body);
  }

  @RequireScope('campaigns.view')
  @Get()
  @ApiOperation({ summary: 'The result webhooks of the workspace (unpaginated)' })
  @ApiOkResponse({ type: ResultWebhooksResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<{ webhooks: WebhookEndpointView[] }> {
    return { webhooks: await this.webhooks.list(p.workspaceId) };
  }

  @RequireScope('campaigns.view')
  @Get(':id')
  @Raises('not_found')
  @ApiOperation({ summary: 'One result webhook' })
  @ApiOkResponse({ type: ResultWebhookResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<WebhookEndpointView> {
    return this.webhooks.get(p.workspaceId, id);
  }

  @RequireScope('campaigns.edit')
  @Patch(':id')
  @Raises('no_fields_to_update', 'not_found')
  @ApiOperation({ summary: 'Change a result webhook (url, events filter, enabled; at least one field)' })
  @ApiOkResponse({ type: ResultWebhookResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateResultWebhookDto): Promise<WebhookEndpointView> {
    return this.webhooks.update(p.workspaceId, id, body);
  }

  @RequireScope('campaigns.edit')
  @Delete(':id')
  @HttpCode(204)
  @Raises('not_found')
  @ApiOperation({ summary: 'Delete a result webhook; its pending deliveries are dropped' })
  @ApiNoContentResponse()
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.webhooks.delete(p.workspaceId, id);
  }

  @RequireScope('campaigns.edit')
  @Post(':id/rotate-secret')
  @HttpCode(200)
  @Raises('not_found')
  @ApiOperation({ summary: 'A new secret, shown once; the previous one also signs deliveries for 24 h' })
  @ApiOkResponse({ type: ResultWebhookWithSecretResponse })
  rotate(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<WebhookEndpointWithSecret> {
    return this.webhooks.rotateSecret(p.workspaceId, id);
  }
}
