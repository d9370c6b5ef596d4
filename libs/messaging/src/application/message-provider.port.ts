import type { SenderVerification } from '../domain/whatsapp-sender';
import type { TemplateReview, WhatsappTemplateFields } from '../domain/whatsapp-template';

/**
 * The messaging channels' provider ports (decisions.md 30.3), shaped like the voice port
 * (libs/telephony/src/application/voice-provider.port.ts): `send` resolves as soon as the provider
 * accepted a message, with the provider's id for it; what happens next (delivered, read, replied,
 * failed, bounced…) arrives later as MessageEvents. The default adapters are the deterministic
 * sandboxes (infrastructure/sandbox-*.provider.ts); real adapters come with the engine's legs.
 */

/** The provider took the message: its own id for it. */
export interface AcceptedMessage {
  providerMessageId: string;
}

/** The provider refused a message for now (rate limit, outage): the engine retries it later. */
export class TransientProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransientProviderError';
  }
}

/** Credentials of a workspace's own WhatsApp Business number (sealed at rest). */
export interface WhatsappCredentials {
  accessToken: string;
  phoneNumberId: string;
  businessAccountId: string;
  /**
   * Which API sends for this number (decisions.md 30.18): the WhatsApp Cloud API (Graph), or the
   * deterministic sandbox (the default, also when absent: senders connected before it existed).
   */
  provider?: WhatsappApi;
  /** The Meta app's secret its webhooks are signed with (X-Hub-Signature-256); WHATSAPP_APP_SECRET when absent. */
  appSecret?: string;
  /** The token the webhook's GET handshake must present; WHATSAPP_WEBHOOK_VERIFY_TOKEN when absent. */
  verifyToken?: string;
}

export const WHATSAPP_APIS = ['SANDBOX', 'CLOUD_API'] as const;
export type WhatsappApi = (typeof WHATSAPP_APIS)[number];

/** The provider's name (messages, events, webhooks) of the API a sender's credentials pick: `cloud_api` or `sandbox`. */
export function whatsappProviderName(credentials: WhatsappCredentials | null): string {
  return credentials?.provider === 'CLOUD_API' ? 'cloud_api' : 'sandbox';
}

/** One outbound WhatsApp template message, its placeholders already filled. */
export interface OutboundWhatsappMessage {
  /** Our message id: the provider's idempotency handle. */
  messageId: string;
  senderId: string;
  /** E.164 of the sender and the recipient. */
  from: string;
  to: string;
  templateName: string;
  language: string;
  /** `{{1}}` → parameters[0] … */
  parameters: string[];
  /** Null for a platform-shared sender (the platform's own credentials). */
  credentials: WhatsappCredentials | null;
}

export abstract class WhatsappProvider {
  /** The provider's name in webhook routes and event records (`sandbox`, …). */
  abstract readonly name: string;

  /** Checks the number can send (and its credentials, for an own number): its verified name and quality rating, or why not. */
  abstract verifySender(request: { senderId: string; e164: string; credentials: WhatsappCredentials | null }): Promise<SenderVerification>;

  /** Submits a template for review and answers the review's state (PENDING while the provider has not decided). */
  abstract reviewTemplate(request: { templateId: string; fields: WhatsappTemplateFields }): Promise<TemplateReview>;

  /**
   * Asks the provider to send and resolves as soon as it accepted the message. Idempotent on
   * `messageId`. Rejects with TransientProviderError when the provider refused for now (retry), or
   * another error when it cannot take it at all.
   */
  abstract send(message: OutboundWhatsappMessage): Promise<AcceptedMessage>;
}

/** SMTP credentials of a sender mailbox (sealed at rest). */
export interface SmtpCredentials {
  host: string;
  port: number;
  username: string;
  password: string;
  secure: boolean;
  /** Which sends for the mailbox (decisions.md 30.19): this SMTP server, or the sandbox (the default, also when absent). */
  provider?: EmailApi;
}

export const EMAIL_APIS = ['SANDBOX', 'SMTP'] as const;
export type EmailApi = (typeof EMAIL_APIS)[number];

/** The provider's name (messages, events, webhooks) of the way a mailbox's credentials pick: `smtp` or `sandbox`. */
export function emailProviderName(credentials: SmtpCredentials | null): string {
  return credentials?.provider === 'SMTP' ? 'smtp' : 'sandbox';
}

/** One outbound email, placeholders filled. */
export interface OutboundEmail {
  messageId: string;
  senderId: string;
  from: { address: string; name: string };
  replyTo: string | null;
  to: string;
  subject: string;
  html: string | null;
  text: string | null;
  /** The recipient's own unsubscribe link (List-Unsubscribe). */
  unsubscribeUrl: string | null;
  /** Null only for tests; a real sender always has them. */
  credentials: SmtpCredentials | null;
}

export abstract class EmailProvider {
  abstract readonly name: string;
  abstract send(message: OutboundEmail): Promise<AcceptedMessage>;
}

/**
 * What a provider reports about a message after accepting it (webhook, or in-process for the
 * sandbox). `eventId` is the provider's own id of the event (a redelivery carries the same one).
 */
export type MessageEvent =
  | { channel: 'WHATSAPP' | 'EMAIL'; type: 'delivered' | 'read'; provider: string; eventId: string; messageId: string; providerMessageId: string; at: Date }
  | {
      channel: 'WHATSAPP';
      type: 'replied';
      provider: string;
      /** For a reply, the provider's id of the reply itself (it is stored as an inbound message under it). */
      eventId: string;
      messageId: string;
      providerMessageId: string;
      at: Date;
      text: string;
    }
  | {
      channel: 'WHATSAPP' | 'EMAIL';
      type: 'failed' | 'bounced' | 'complained';
      provider: string;
      eventId: string;
      messageId: string;
      providerMessageId: string;
      at: Date;
      /** A permanent failure is not retried. */
      permanent: boolean;
      reason: string;
    };

/**
 * Where message events go in this process, like VoiceCallEvents: webhooks (through the worker's
 * job) and in-process providers deliver here. The first subscriber is messaging's own
 * MessageEventIntake (it records the message's progress, replies and opt-outs, once per event id);
 * the modules that own a message's other consequences subscribe after it (the engine's message
 * legs, later). Events nobody subscribed to are dropped.
 */
export class MessageEvents {
  private readonly subscribers: ((events: readonly MessageEvent[]) => Promise<void>)[] = [];

  /** A subscriber that takes one event at a time (in the order delivered). */
  subscribe(handler: (event: MessageEvent) => Promise<void>): void {
    this.subscribers.push(async (events) => {
      for (const event of events) await handler(event);
    });
  }

  /**
   * A subscriber that takes a batch at once (decisions.md 47): a message's events in a batch are
   * in the order they happened (47.18), so applying the batch in order gives what one-by-one
   * delivery gives.
   */
  subscribeMany(handler: (events: readonly MessageEvent[]) => Promise<void>): void {
    this.subscribers.push(handler);
  }

  get hasSubscribers(): boolean {
    return this.subscribers.length > 0;
  }

  deliver(event: MessageEvent): Promise<void> {
    return this.deliverMany([event]);
  }

  /**
   * Every subscriber in turn gets the whole batch (one-event subscribers, each event in order),
   * once none of its messages is held by a send still recording what the provider answered.
   */
  async deliverMany(events: readonly MessageEvent[]): Promise<void> {
    if (events.length === 0) return;
    if (this.held.size > 0) {
      const waits = [...new Set(events.map((event) => event.messageId))].filter((id) => this.held.has(id)).map((id) => this.released(id));
      if (waits.length > 0) await Promise.all(waits);
    }
    for (const handle of this.subscribers) await handle(events);
  }

  /** Open holds and the deliveries waiting on them, by message id. */
  private readonly held = new Map<string, { holds: number; waiting: Array<() => void> }>();

  /**
   * Runs `work` — asking the provider for these messages and recording its answers — with their
   * reports in this process held until it ends (decisions.md 47.13). A report the provider sends
   * at once (the zero-latency sandbox reports in the next turn of the event loop) would otherwise
   * meet the send's own transaction on the message's row lock and wait there, holding a database
   * connection. A real provider's report arrives after its answer; held or not, the report is
   * applied, only not before the send is on record. Nothing in `work` may wait for these reports.
   */
  async holding<T>(messageIds: readonly string[], work: () => Promise<T>): Promise<T> {
    for (const id of messageIds) {
      const entry = this.held.get(id);
      if (entry) entry.holds++;
      else this.held.set(id, { holds: 1, waiting: [] });
    }
    try {
      return await work();
    } finally {
      for (const id of messageIds) {
        const entry = this.held.get(id)!;
        if (--entry.holds > 0) continue;
        this.held.delete(id);
        for (const resume of entry.waiting) resume();
      }
    }
  }

  private released(messageId: string): Promise<void> {
    return new Promise((resolve) => this.held.get(messageId)!.waiting.push(resolve));
  }
}
