import { Injectable } from '@nestjs/common';
import { AppConfig, AppError, Clock, Outbox } from '@outreach/core';
import { optOutAddress } from '../domain/opt-out';
import { emailProviderName, whatsappProviderName } from './message-provider.port';
import { providerReportJob } from './messaging-jobs';
import { EmailSenderRepository, OptOutRepository, WhatsappSenderRepository } from './messaging.ports';
import { HUB_SIGNATURE_HEADER, MessagingWebhookNotAuthentic, ProviderReport, readEmailWebhook, readWhatsappWebhook, verifyHubSignature } from './provider-reports';
import { UnsubscribeLinks } from './unsubscribe-links';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The messaging providers' webhooks (decisions.md 30.14), shaped like the voice webhooks (16.24):
 * the signature is verified over the raw body before anything is read (bad or missing → 401
 * unauthorized, nothing written), then every report becomes an outbox job, committed before the
 * provider is answered; the worker applies it (MessageEventIntake.applyReport). An unknown
 * sender answers like a bad signature (401: there is no secret to verify with, and which sender
 * ids exist is not revealed). Also the GET verification handshake and the unsubscribe link.
 */
@Injectable()
export class MessagingWebhooks {
  constructor(
    private readonly whatsappSenders: WhatsappSenderRepository,
    private readonly emailSenders: EmailSenderRepository,
    private readonly optOuts: OptOutRepository,
    private readonly links: UnsubscribeLinks,
    private readonly outbox: Outbox,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** GET /webhooks/whatsapp/{senderId}: Meta's subscription handshake; answers the challenge when the token is the sender's. */
  async verifyWhatsapp(senderId: string, query: { mode?: string; verifyToken?: string; challenge?: string }): Promise<string> {
    const sender = await this.whatsappSenders.findAnyById(senderId);
    if (!sender) throw notAuthentic('no such sender');
    const credentials = await this.whatsappSenders.revealCredentials(sender);
    const expected = credentials?.verifyToken ?? this.config.whatsappWebhookVerifyToken;
    if (query.mode !== 'subscribe' || query.verifyToken !== expected || !query.challenge) {
      throw new AppError('unauthorized', { message: 'the verification handshake needs hub.mode=subscribe, the right hub.verify_token and a hub.challenge' });
    }
    return query.challenge;
  }

  /** POST /webhooks/whatsapp/{senderId}: statuses and inbound messages, signed with the sender's app secret (X-Hub-Signature-256). */
  async receiveWhatsapp(senderId: string, headers: Headers, rawBody: Buffer | undefined): Promise<{ received: number }> {
    const sender = await this.whatsappSenders.findAnyById(senderId);
    if (!sender) throw notAuthentic('no such sender');
    const credentials = await this.whatsappSenders.revealCredentials(sender);
    const secret = credentials?.appSecret ?? this.config.whatsappAppSecret;
    return this.accept(senderId, () => {
      verifyHubSignature(secret, header(headers, HUB_SIGNATURE_HEADER), rawBody ?? Buffer.alloc(0));
      return readWhatsappWebhook(whatsappProviderName(credentials), rawBody ?? Buffer.alloc(0));
    });
  }

  /** POST /webhooks/email/{senderId}: bounces and complaints, signed with EMAIL_WEBHOOK_SECRET (X-Hub-Signature-256). */
  async receiveEmail(senderId: string, headers: Headers, rawBody: Buffer | undefined): Promise<{ received: number }> {
    const sender = await this.emailSenders.findAnyById(senderId);
    if (!sender) throw notAuthentic('no such sender');
    const provider = emailProviderName(await this.emailSenders.revealCredentials(sender.workspaceId, sender.id));
    return this.accept(senderId, () => {
      verifyHubSignature(this.config.emailWebhookSecret, header(headers, HUB_SIGNATURE_HEADER), rawBody ?? Buffer.alloc(0));
      return readEmailWebhook(provider, rawBody ?? Buffer.alloc(0));
    });
  }

  /** GET or POST /webhooks/email/unsubscribe/{token}: the List-Unsubscribe link records an opt-out; a token that is not ours → 401. */
  async unsubscribe(token: string): Promise<{ unsubscribed: true; channel: string }> {
    const subject = this.links.read(token);
    if (!subject) throw notAuthentic('not an unsubscribe link of this service');
    await this.optOuts.record({
      workspaceId: subject.workspaceId,
      channel: subject.channel,
      address: optOutAddress(subject.channel, subject.address),
      source: 'unsubscribe_link',
      at: this.clock.now(),
    });
    return { unsubscribed: true, channel: subject.channel };
  }

  private async accept(senderId: string, read: () => ProviderReport[]): Promise<{ received: number }> {
    let reports: ProviderReport[];
    try {
      reports = read();
    } catch (error) {
      if (error instanceof MessagingWebhookNotAuthentic) throw notAuthentic(error.message);
      throw error;
    }
    if (reports.length > 0) await this.outbox.enqueue(...reports.map((r) => providerReportJob(senderId, r)));
    return { received: reports.length };
  }
}

const notAuthentic = (why: string) => new AppError('unauthorized', { message: `webhook not authentic: ${why}` });
