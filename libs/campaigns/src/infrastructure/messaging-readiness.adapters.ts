import { Injectable } from '@nestjs/common';
import { MessagingReadiness } from '@outreach/messaging';
import { EmailReadiness, WhatsappReadiness } from '../application/campaigns.ports';

/** The start checks' view of WhatsApp: the messaging module's senders and templates (decisions.md 30.7). */
@Injectable()
export class MessagingWhatsappReadiness extends WhatsappReadiness {
  constructor(private readonly messaging: MessagingReadiness) {
    super();
  }

  check(workspaceId: string, outreachTemplateId: string | null) {
    return this.messaging.whatsapp(workspaceId, outreachTemplateId);
  }
}

/** The start checks' view of email: the workspace's default mailbox and default email template. */
@Injectable()
export class MessagingEmailReadiness extends EmailReadiness {
  constructor(private readonly messaging: MessagingReadiness) {
    super();
  }

  check(workspaceId: string) {
    return this.messaging.email(workspaceId);
  }
}
