import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiQuery } from '@nestjs/swagger';
import { Public, Raises, RequestWithRawBody } from '@outreach/platform';
import { MessagingWebhooks } from '../application/messaging-webhooks';

export class MessagingWebhookResponse {
  @ApiProperty({ type: 'integer', description: 'Reports taken from the request (stored before this answer; applied by the worker)', example: 2 })
  received: number;
}

export class UnsubscribeResponse {
  @ApiProperty({ enum: [true], description: 'The address is opted out of the channel in the workspace that sent the message' })
  unsubscribed: true;

  @ApiProperty({ enum: ['WHATSAPP', 'EMAIL'], example: 'EMAIL' })
  channel: string;
}

/**
 * The messaging providers' webhooks and the unsubscribe link: public (no API key), authenticated
 * by the provider's signature over the raw body or by the link's own signature (decisions.md 30.14, 30.17).
 */
@Controller()
export class MessagingWebhooksController {
  constructor(private readonly webhooks: MessagingWebhooks) {}

  @Public()
  @Get('webhooks/whatsapp/:senderId')
  @Raises('unauthorized')
  @ApiOperation({ summary: "WhatsApp's webhook verification handshake: answers hub.challenge when hub.verify_token is the sender's" })
  @ApiQuery({ name: 'hub.mode', required: false, schema: { type: 'string', example: 'subscribe' } })
  @ApiQuery({ name: 'hub.verify_token', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'hub.challenge', required: false, schema: { type: 'string', example: '1158201444' } })
  @ApiOkResponse({ description: 'The challenge, as plain text', content: { 'text/plain': { schema: { type: 'string' } } } })
  async verify(
    @Param('senderId') senderId: string,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const value = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
    const challenge = await this.webhooks.verifyWhatsapp(senderId, {
      mode: value('hub.mode'),
      verifyToken: value('hub.verify_token'),
      challenge: value('hub.challenge'),
    });
    // Plain text on success only: an error keeps the JSON error body.
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    return challenge;
  }

  @Public()
  @Post('webhooks/whatsapp/:senderId')
  @HttpCode(200)
  @Raises('unauthorized')
  @ApiOperation({ summary: "A WhatsApp sender's statuses and inbound messages (Cloud API payload), signed X-Hub-Signature-256; no API key" })
  @ApiOkResponse({ type: MessagingWebhookResponse })
  receiveWhatsapp(@Param('senderId') senderId: string, @Req() req: RequestWithRawBody): Promise<MessagingWebhookResponse> {
    return this.webhooks.receiveWhatsapp(senderId, req.headers, req.rawBody);
  }

  @Public()
  @Post('webhooks/email/:senderId')
  @HttpCode(200)
  @Raises('unauthorized')
  @ApiOperation({ summary: "An email sender's bounces and complaints, signed X-Hub-Signature-256 with EMAIL_WEBHOOK_SECRET; no API key" })
  @ApiOkResponse({ type: MessagingWebhookResponse })
  receiveEmail(@Param('senderId') senderId: string, @Req() req: RequestWithRawBody): Promise<MessagingWebhookResponse> {
    return this.webhooks.receiveEmail(senderId, req.headers, req.rawBody);
  }

  @Public()
  @Get('webhooks/email/unsubscribe/:token')
  @Raises('unauthorized')
  @ApiOperation({ summary: "An email's List-Unsubscribe link: opts the recipient out (signed token, else 401; no API key)" })
  @ApiOkResponse({ type: UnsubscribeResponse })
  unsubscribe(@Param('token') token: string): Promise<UnsubscribeResponse> {
    return this.webhooks.unsubscribe(token);
  }

  @Public()
  @Post('webhooks/email/unsubscribe/:token')
  @HttpCode(200)
  @Raises('unauthorized')
  @ApiOperation({ summary: 'The one-click form of the unsubscribe link (RFC 8058 List-Unsubscribe-Post)' })
  @ApiOkResponse({ type: UnsubscribeResponse })
  unsubscribeOneClick(@Param('token') token: string): Promise<UnsubscribeResponse> {
    return this.webhooks.unsubscribe(token);
  }
}
