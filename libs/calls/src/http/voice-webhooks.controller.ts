import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { Public, Raises, RequestWithRawBody } from '@outreach/platform';
import { ReceiveVoiceWebhook } from '../application/receive-voice-webhook';

export class VoiceWebhookResponse {
  @ApiProperty({ type: 'integer', description: 'Events taken from the request (stored before this answer; applied by the worker)', example: 1 })
  received: number;

  @ApiProperty({
    required: false,
    description: 'An inbound call offered by the request (decisions.md 36.3): its Call id, whether an INBOUND campaign took it, and that campaign',
    example: { callId: '7d0c9d47-3c8e-4df4-9a53-5f1b1c7f9a10', decision: 'taken', campaignId: 'b5f3c1e4-2f0a-4c55-9a0e-2f1b7f7d0a01' },
  })
  inbound?: { callId: string | null; decision: 'taken' | 'declined'; campaignId: string | null };
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
      'vapi (JSON server messages, x-vapi-secret). A bad signature or a call that is not ours → 401 unauthorized, nothing stored. ' +
      'Inbound calls: the sandbox\'s signed `{type: "incoming", …}` and Twilio\'s Voice URL request (Direction=inbound, CallStatus=ringing), ' +
      'answered with TwiML (text/xml) for Twilio: the RUNNING INBOUND campaign on the number takes the call, else it is declined politely.',
  })
  @ApiExtraModels(VoiceWebhookResponse)
  @ApiOkResponse({
    description: 'JSON for events and the sandbox; TwiML (text/xml) for an inbound call offered by Twilio',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(VoiceWebhookResponse) } },
      'text/xml': { schema: { type: 'string', example: '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Hello.</Say></Response>' } },
    },
  })
  async receive(
    @Param('provider') provider: string,
    @Req() req: RequestWithRawBody,
    @Res({ passthrough: true }) res: Response,
  ): Promise<VoiceWebhookResponse | string> {
    const { reply, ...answer } = await this.webhooks.execute(provider, { headers: req.headers as Record<string, string | undefined>, rawBody: req.rawBody, url: req.originalUrl });
    if (!reply) return answer;
    // The provider expects instructions in its own format (Twilio: TwiML).
    res.type(reply.contentType);
    return reply.body;
  }
}
