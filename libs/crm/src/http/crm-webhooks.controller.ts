import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AnswerErrors, Public, Raises, RequestWithRawBody } from '@outreach/platform';
import { CrmWebhookReceipt, CrmWebhooks } from '../application/crm-webhooks.service';
import { CrmWebhookReceiptResponse } from './crm.dto';

/** Inbound CRM events: authenticated by the provider's signature with the connection's secret, not an API key. */
@Controller('crm/webhooks')
export class CrmWebhooksController {
  constructor(private readonly webhooks: CrmWebhooks) {}

  @Public()
  @Post(':connectionId')
  @HttpCode(200)
  @Raises('unauthorized', 'crm_connection_not_found', 'crm_connection_not_active', 'webhooks_not_supported', 'invalid_credentials', 'crm_upstream_unavailable', 'crm_upstream_error', 'provider_error')
  @AnswerErrors({ crm_connection_not_found: 404 })
  @ApiOperation({ summary: "A CRM's contact events for one connection, signed the provider's way (sandbox, HubSpot v3, Shopify); 401 and nothing stored when the signature fails" })
  @ApiOkResponse({ type: CrmWebhookReceiptResponse })
  receive(@Param('connectionId') connectionId: string, @Req() req: RequestWithRawBody): Promise<CrmWebhookReceipt> {
    return this.webhooks.receive(connectionId, { method: req.method, headers: req.headers as Record<string, string | undefined>, rawBody: req.rawBody ?? Buffer.alloc(0) });
  }
}
