import { randomUUID } from 'node:crypto';
import { Command, Option } from 'nest-commander';
import { ReceiveVoiceWebhook } from '@outreach/calls';
import { AppConfig, Clock, isE164 } from '@outreach/core';
import { signSandboxIncoming } from '@outreach/telephony';
import { UsageError } from '../cli-errors';
import { OperatorCommand } from '../operator-command';

interface CallSimulateInboundOptions {
  number: string;
  from: string;
}

/**
 * Development: a call from `--from` to the workspace number `--number`, offered as the sandbox
 * provider offers one — its signed webhook (SANDBOX_VOICE_WEBHOOK_SECRET), read by the same use
 * case as POST /webhooks/voice/sandbox (decisions.md 36.6). The running worker plays the call.
 */
@Command({
  name: 'call:simulate-inbound',
  description:
    "Development: simulate a call from --from to one of our numbers (--number) through the sandbox's signed inbound webhook. The number's RUNNING INBOUND campaign takes it (a running worker plays it: analysis, billing, the lead result), else it is declined (recorded, not billed). Prints {received, inbound: {callId, decision, campaignId}}.",
})
export class CallSimulateInboundCommand extends OperatorCommand<CallSimulateInboundOptions> {
  constructor(
    private readonly webhooks: ReceiveVoiceWebhook,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected async execute(options: CallSimulateInboundOptions) {
    const providerCallId = `sbx_in_${randomUUID()}`;
    const now = this.clock.now();
    const signed = signSandboxIncoming(
      this.config.sandboxVoiceWebhookSecret,
      { eventId: `${providerCallId}:incoming`, providerCallId, from: options.from, to: options.number, at: now },
      now,
    );
    const { reply, ...answer } = await this.webhooks.execute('sandbox', { headers: signed.headers, rawBody: Buffer.from(signed.body), url: '/webhooks/voice/sandbox' });
    void reply; // the sandbox is told nothing
    return answer;
  }

  @Option({ flags: '--number <e164>', description: 'our number that is called (E.164; a number of any workspace)', required: true })
  parseNumber(raw: string): string {
    return parseE164('--number', raw);
  }

  @Option({ flags: '--from <e164>', description: 'the caller (E.164)', required: true })
  parseFrom(raw: string): string {
    return parseE164('--from', raw);
  }
}

function parseE164(flag: string, raw: string): string {
  const value = raw.trim();
  if (!isE164(value)) throw new UsageError(`${flag} must be an E.164 number (+ and 8-15 digits), got ${JSON.stringify(raw)}`);
  return value;
}
