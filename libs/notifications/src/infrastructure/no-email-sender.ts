import { Injectable } from '@nestjs/common';
import { EmailMessage, NotificationEmailSender } from '../application/notifications.ports';

/**
 * The default: no workspace has an e-mail sender until the messaging module (issue 12; decisions.md 13.13) provides
 * one, so notifications are written with email status `not_configured` and nothing is sent.
 */
@Injectable()
export class NoNotificationEmailSender extends NotificationEmailSender {
  async isConfigured(): Promise<boolean> {
    return false;
  }

  async send(_workspaceId: string, message: EmailMessage): Promise<void> {
    throw new Error(`no e-mail sender is configured (message to ${message.to} not sent)`);
  }
}
