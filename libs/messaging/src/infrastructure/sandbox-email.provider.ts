import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@outreach/core';
import { AcceptedMessage, EmailProvider, MessageEvent, MessageEvents, OutboundEmail } from '../application/message-provider.port';

export type SandboxEmailOutcome = 'delivered' | 'bounced' | 'complained';

/**
 * decisions.md section 30, by the recipient's LOCAL PART (before the @, any case): containing `bounce` → hard
 * bounce; containing `complain` → delivered, then a complaint (an opt-out); otherwise delivered.
 */
export function sandboxEmailOutcome(to: string): SandboxEmailOutcome {
  const local = to.slice(0, Math.max(0, to.lastIndexOf('@'))).toLowerCase() || to.toLowerCase();
  if (local.includes('bounce')) return 'bounced';
  if (local.includes('complain')) return 'complained';
  return 'delivered';
}

/** The default email provider: deterministic, no network, no SMTP. */
@Injectable()
export class SandboxEmailProvider extends EmailProvider {
  readonly name = 'sandbox';
  private readonly logger = new Logger('SandboxEmailProvider');

  constructor(
    private readonly events: MessageEvents,
    private readonly clock: Clock,
  ) {
    super();
  }

  async send(message: OutboundEmail): Promise<AcceptedMessage> {
    const providerMessageId = `<${createHash('sha256').update(message.messageId).digest('hex').slice(0, 24)}@sandbox.invalid>`;
    if (this.events.hasSubscribers) setImmediate(() => void this.emit(message, providerMessageId, sandboxEmailOutcome(message.to)));
    return { providerMessageId };
  }

  private async emit(message: OutboundEmail, providerMessageId: string, outcome: SandboxEmailOutcome): Promise<void> {
    const base = { channel: 'EMAIL' as const, provider: this.name, messageId: message.messageId, providerMessageId, at: this.clock.now() };
    const events: MessageEvent[] =
      outcome === 'bounced'
        ? [{ ...base, eventId: `${providerMessageId}.0`, type: 'bounced', permanent: true, reason: 'hard bounce: mailbox does not exist' }]
        : [
            { ...base, eventId: `${providerMessageId}.0`, type: 'delivered' },
            ...(outcome === 'complained'
              ? [{ ...base, eventId: `${providerMessageId}.1`, type: 'complained' as const, permanent: true, reason: 'recipient marked the message as spam' }]
              : []),
          ];
    for (const event of events) {
      try {
        await this.events.deliver(event);
      } catch (error) {
        this.logger.warn(`sandbox event ${event.eventId} not applied: ${(error as Error).message}`);
      }
    }
  }
}
