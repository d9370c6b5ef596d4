import { AcceptedMessage, OutboundWhatsappMessage, WhatsappCredentials, WhatsappProvider } from '../application/message-provider.port';
import type { SenderVerification } from '../domain/whatsapp-sender';
import type { TemplateReview, WhatsappTemplateFields } from '../domain/whatsapp-template';

/**
 * The WhatsApp provider the module uses (decisions.md 30.18): each sender's credentials pick the
 * API — `provider: CLOUD_API` goes to the Cloud API adapter, everything else (platform-shared
 * numbers, own numbers without it) to the deterministic sandbox, which stays the default.
 */
export class RoutingWhatsappProvider extends WhatsappProvider {
  readonly name = 'whatsapp';

  constructor(
    private readonly sandbox: WhatsappProvider,
    private readonly cloudApi: WhatsappProvider,
  ) {
    super();
  }

  verifySender(request: { senderId: string; e164: string; credentials: WhatsappCredentials | null }): Promise<SenderVerification> {
    return this.pick(request.credentials).verifySender(request);
  }

  reviewTemplate(request: { templateId: string; fields: WhatsappTemplateFields }): Promise<TemplateReview> {
    return this.sandbox.reviewTemplate(request);
  }

  send(message: OutboundWhatsappMessage): Promise<AcceptedMessage> {
    return this.pick(message.credentials).send(message);
  }

  private pick(credentials: WhatsappCredentials | null): WhatsappProvider {
    return credentials?.provider === 'CLOUD_API' ? this.cloudApi : this.sandbox;
  }
}
