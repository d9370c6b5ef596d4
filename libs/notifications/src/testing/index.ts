// In-memory fakes of the notifications module's ports, for use-case specs.
import { EmailMessage, NotificationEmailSender, NotificationRepository } from '../application/notifications.ports';
import type { NotificationEmailStatus, NotificationProps } from '../domain/notification';

export class InMemoryNotificationRepository extends NotificationRepository {
  readonly rows: NotificationProps[] = [];

  async insertNew(rows: NotificationProps[]): Promise<NotificationProps[]> {
    const fresh = rows.filter(
      (r) =>
        !this.rows.some(
          (n) => n.campaignId === r.campaignId && n.event === r.event && n.occurredAt.getTime() === r.occurredAt.getTime() && n.memberId === r.memberId,
        ),
    );
    this.rows.push(...fresh.map((r) => ({ ...r })));
    return fresh.map((r) => ({ ...r }));
  }

  async setEmailStatus(id: string, status: NotificationEmailStatus): Promise<void> {
    const row = this.rows.find((n) => n.id === id);
    if (row) row.emailStatus = status;
  }

  async list(filter: { workspaceId: string; campaignId?: string; limit: number }): Promise<NotificationProps[]> {
    return this.rows
      .filter((n) => n.workspaceId === filter.workspaceId && (!filter.campaignId || n.campaignId === filter.campaignId))
      .slice(-filter.limit)
      .reverse();
  }
}

/** An e-mail sender that records what it sends; `failFor` addresses reject. */
export class RecordingEmailSender extends NotificationEmailSender {
  readonly sent: Array<{ workspaceId: string } & EmailMessage> = [];
  readonly failFor = new Set<string>();
  configured = true;

  async isConfigured(): Promise<boolean> {
    return this.configured;
  }

  async send(workspaceId: string, message: EmailMessage): Promise<void> {
    if (this.failFor.has(message.to)) throw new Error(`mailbox ${message.to} refused`);
    this.sent.push({ workspaceId, ...message });
  }
}
