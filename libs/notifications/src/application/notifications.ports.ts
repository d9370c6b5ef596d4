import type { NotificationEmailStatus, NotificationProps } from '../domain/notification';

export abstract class NotificationRepository {
  /**
   * Stores the notifications that do not exist yet (one per member, campaign, event and
   * occurrence) and answers those it stored: a job that runs twice stores and sends nothing twice.
   */
  abstract insertNew(rows: NotificationProps[]): Promise<NotificationProps[]>;
  abstract setEmailStatus(id: string, status: NotificationEmailStatus): Promise<void>;
  /** Newest first. */
  abstract list(filter: { workspaceId: string; campaignId?: string; limit: number }): Promise<NotificationProps[]>;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * The e-mail sender port for notifications. The default adapter has no sender: the workspace's
 * e-mail senders arrive with the messaging module (issue 12; decisions.md 13.13), which implements this port.
 */
export abstract class NotificationEmailSender {
  abstract isConfigured(workspaceId: string): Promise<boolean>;
  /** Rejects when the message could not be handed over. */
  abstract send(workspaceId: string, message: EmailMessage): Promise<void>;
}
