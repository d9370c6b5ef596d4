import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@outreach/core';
import {
  AcceptedMessage,
  MessageEvent,
  MessageEvents,
  OutboundWhatsappMessage,
  TransientProviderError,
  WhatsappCredentials,
  WhatsappProvider,
} from '../application/message-provider.port';
import type { SenderVerification } from '../domain/whatsapp-sender';
import type { TemplateReview, WhatsappTemplateFields } from '../domain/whatsapp-template';
import { SandboxReports } from './sandbox-reports';

/** What the sandbox does with a message to a number: everything derives from the number alone. */
export type SandboxWhatsappScript =
  | { accepted: false; transient: true; reason: string }
  | { accepted: true; events: Array<{ type: 'delivered' | 'read' } | { type: 'replied'; text: string } | { type: 'failed'; permanent: true; reason: string }> };

const lastDigit = (text: string): number => Number(/(\d)\D*$/.exec(text)?.[1] ?? '0');

/**
 * decisions.md section 30, by the recipient's LAST DIGIT: 0 undeliverable (permanent), 1 transient provider
 * error (the send is refused for now), 2 delivered not read, 3 read no reply, 4 reply "STOP"
 * (opt-out), 5 reply "Yes, interested", 6 reply "No thanks", 7–9 delivered and read.
 */
export function sandboxWhatsappScript(to: string): SandboxWhatsappScript {
  switch (lastDigit(to)) {
    case 0:
      return { accepted: true, events: [{ type: 'failed', permanent: true, reason: 'undeliverable: not a WhatsApp user' }] };
    case 1:
      return { accepted: false, transient: true, reason: 'provider temporarily unavailable' };
    case 2:
      return { accepted: true, events: [{ type: 'delivered' }] };
    case 3:
      return { accepted: true, events: [{ type: 'delivered' }, { type: 'read' }] };
    case 4:
      return { accepted: true, events: [{ type: 'delivered' }, { type: 'read' }, { type: 'replied', text: 'STOP' }] };
    case 5:
      return { accepted: true, events: [{ type: 'delivered' }, { type: 'read' }, { type: 'replied', text: 'Yes, interested' }] };
    case 6:
      return { accepted: true, events: [{ type: 'delivered' }, { type: 'read' }, { type: 'replied', text: 'No thanks' }] };
    default:
      return { accepted: true, events: [{ type: 'delivered' }, { type: 'read' }] };
  }
}

/**
 * The sandbox's verification of a sender (decisions.md 30.2): a number ending in 0 is refused
 * (FAILED, "number not registered with WhatsApp Business"); any other is CONNECTED with the
 * verified name `Sandbox <last four digits>` and quality rating GREEN.
 */
export function sandboxSenderVerification(e164: string): SenderVerification {
  if (lastDigit(e164) === 0) return { ok: false, reason: 'the sandbox refuses numbers ending in 0: number not registered with WhatsApp Business' };
  return { ok: true, verifiedName: `Sandbox ${e164.replace(/\D/g, '').slice(-4)}`, qualityRating: 'GREEN' };
}

/** The sandbox's review (decisions.md section 30): a name starting with `reject` is REJECTED, every other APPROVED, at the first review. */
export function sandboxTemplateReview(name: string): TemplateReview {
  return name.toLowerCase().startsWith('reject')
    ? { status: 'REJECTED', reason: 'the sandbox rejects templates whose name starts with "reject"' }
    : { status: 'APPROVED' };
}

/**
 * The default WhatsApp provider: deterministic, no network. An accepted message's events are
 * delivered to MessageEvents right after `send` answers (when something in this process listens).
 */
@Injectable()
export class SandboxWhatsappProvider extends WhatsappProvider {
  readonly name = 'sandbox';
  private readonly reports: SandboxReports;

  constructor(events: MessageEvents, clock: Clock) {
    super();
    this.reports = new SandboxReports(events, clock, new Logger('SandboxWhatsappProvider'));
  }

  async verifySender(request: { senderId: string; e164: string; credentials: WhatsappCredentials | null }): Promise<SenderVerification> {
    return sandboxSenderVerification(request.e164);
  }

  async reviewTemplate(request: { templateId: string; fields: WhatsappTemplateFields }): Promise<TemplateReview> {
    return sandboxTemplateReview(request.fields.name);
  }

  async send(message: OutboundWhatsappMessage): Promise<AcceptedMessage> {
    const script = sandboxWhatsappScript(message.to);
    if (!script.accepted) throw new TransientProviderError(script.reason);
    const providerMessageId = `wamid.sandbox.${createHash('sha256').update(message.messageId).digest('hex').slice(0, 24)}`;
    this.reports.report(message.messageId, (at) =>
      script.events.map((step, i): MessageEvent => {
        const base = { channel: 'WHATSAPP' as const, provider: this.name, eventId: `${providerMessageId}.${i}`, messageId: message.messageId, providerMessageId, at };
        return step.type === 'replied'
          ? { ...base, type: 'replied', text: step.text }
          : step.type === 'failed'
            ? { ...base, type: 'failed', permanent: step.permanent, reason: step.reason }
            : { ...base, type: step.type };
      }),
    );
    return { providerMessageId };
  }
}
