import { Injectable } from '@nestjs/common';
import { AppError, isUuid } from '@outreach/core';
import { NotificationProps } from '../domain/notification';
import { NotificationRepository } from './notifications.ports';

export type NotificationView = Omit<NotificationProps, 'occurredAt' | 'createdAt'> & { occurredAt: string; createdAt: string };

/** The operator's view of notifications (CLI `notification:list`). */
@Injectable()
export class NotificationQueries {
  constructor(private readonly notifications: NotificationRepository) {}

  async list(filter: { workspaceId: string; campaignId?: string; limit?: number }): Promise<NotificationView[]> {
    if (!isUuid(filter.workspaceId)) throw new AppError('invalid_request', { message: '--workspace must be a UUID' });
    if (filter.campaignId !== undefined && !isUuid(filter.campaignId)) throw new AppError('invalid_request', { message: '--campaign must be a UUID' });
    const rows = await this.notifications.list({ workspaceId: filter.workspaceId, campaignId: filter.campaignId, limit: filter.limit ?? 100 });
    return rows.map((n) => ({ ...n, occurredAt: n.occurredAt.toISOString(), createdAt: n.createdAt.toISOString() }));
  }
}
