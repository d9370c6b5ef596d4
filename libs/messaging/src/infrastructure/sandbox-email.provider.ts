import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@outreach/core';
import { AcceptedMessage, EmailProvider, MessageEvent, MessageEvents, OutboundEmail } from '../application/message-provider.port';
import { SandboxReports } from './sandbox-reports';

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
  private readonly reports: SandboxReports;

  constructor(events: MessageEvents, clock: Clock) {
    super();
    this.reports = new SandboxReports(events, clock, new Logger('SandboxEmailProvider'));
  }

  async send(message: OutboundEmail): Promise<AcceptedMessage> {
    const providerMessageId = `<${createHash('sha256').update(message.messageId).digest('hex').slice(0, 24)}@sandbox.invalid>`;
    const outcome = sandboxEmailOutcome(message.to);
    this.reports.report(message.messageId, (at): MessageEvent[] => {
      const base = { channel: 'EMAIL' as const, provider: this.name, messageId: message.messageId, providerMessageId, at };
      return outcome === 'bounced'
        ? [{ ...base, eventId: `${providerMessageId}.0`, type: 'bounced', permanent: true, reason: 'hard bounce: mailbox does not exist' }]
        : [
            { ...base, eventId: `${providerMessageId}.0`, type: 'delivered' },
            ...(outcome === 'complained'
              ? [{ ...base, eventId: `${providerMessageId}.1`, type: 'complained' as const, permanent: true, reason: 'recipient marked the message as spam' }]
              : []),
          ];
    });
    return { providerMessageId };
  }
}
