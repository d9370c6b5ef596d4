import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { Public, Raises, RequestWithRawBody } from '@outreach/platform';
import { ReceiveVoiceWebhook } from '../application/receive-voice-webhook';

export class VoiceWebhookResponse {
  @ApiProperty({ type: 'integer', description: 'Events taken from the request (stored before this answer; applied by the worker)', example: 1 })
  received: number;
}

/** Inbound call events from voice providers: authenticated by the provider's signature, not an API key. */
@Controller()
export class VoiceWebhooksController {
  constructor(private readonly webhooks: ReceiveVoiceWebhook) {}

  @Public()
  @Post('webhooks/voice/:provider')
  @HttpCode(200)
  @Raises('unauthorized', 'not_found')
  @ApiOperation({
    summary: "A voice provider's call events (ringing, answered, ended); signed by the provider, no API key",
    description:
      'provider: sandbox (JSON, sandbox-signature), twilio (form-encoded status callbacks, X-Twilio-Signature over PUBLIC_BASE_URL + path), ' +
      'vapi (JSON server messages, x-vapi-secret). A bad signature or a call that is not ours → 401 unauthorized, nothing stored.',
  })
  @ApiOkResponse({ type: VoiceWebhookResponse })
  receive(@Param('provider') provider: string, @Req() req: RequestWithRawBody): Promise<VoiceWebhookResponse> {
    return this.webhooks.execute(provider, { headers: req.headers as Record<string, string | undefined>, rawBody: req.rawBody, url: req.originalUrl });
  }
}
