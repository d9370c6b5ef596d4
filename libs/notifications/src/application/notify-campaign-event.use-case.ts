import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Clock, UnitOfWork } from '@outreach/core';
import { MemberDirectory } from '@outreach/workspaces';
import { notificationEmail, NotificationProps } from '../domain/notification';
import { CampaignEventPayload } from './notifications-jobs';
import { NotificationEmailSender, NotificationRepository } from './notifications.ports';

export interface NotifyReport {
  written: number;
  emailed: number;
  /** Named members no longer ACTIVE (or gone) when the event was handled: not notified. */
  skipped: number;
}

/**
 * Job notifications/campaign-event: one notification row per member named on the campaign who is
 * still ACTIVE, then its e-mail through the sender port when the workspace has one. Idempotent:
 * a re-run stores and sends only what the first run did not.
 */
@Injectable()
export class NotifyCampaignEvent {
  private readonly logger = new Logger('NotifyCampaignEvent');

  constructor(
    private readonly members: MemberDirectory,
    private readonly notifications: NotificationRepository,
    private readonly email: NotificationEmailSender,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(event: CampaignEventPayload): Promise<NotifyReport> {
    const members = await this.members.activeAmong(event.workspaceId, event.memberIds);
    const configured = members.length > 0 && (await this.email.isConfigured(event.workspaceId));
    const now = this.clock.now();
    const rows: NotificationProps[] = members.map((member) => ({
      id: randomUUID(),
      workspaceId: event.workspaceId,
      memberId: member.id,
      email: member.email,
      campaignId: event.campaignId,
      campaignName: event.campaignName,
      event: event.event,
      reason: event.reason,
      occurredAt: new Date(event.occurredAt),
      emailStatus: configured ? 'pending' : 'not_configured',
      createdAt: now,
    }));
    const written = await this.uow.run(() => this.notifications.insertNew(rows));
    let emailed = 0;
    for (const row of written.filter((n) => n.emailStatus === 'pending')) {
      try {
        await this.email.send(row.workspaceId, { to: row.email, ...notificationEmail(row) });
        await this.notifications.setEmailStatus(row.id, 'sent');
        emailed++;
      } catch (error) {
        this.logger.warn(`notification ${row.id} to ${row.memberId}: e-mail failed (${(error as Error).message})`);
        await this.notifications.setEmailStatus(row.id, 'failed');
      }
    }
    return { written: written.length, emailed, skipped: event.memberIds.length - members.length };
  }
}
