import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { NotificationRepository } from '../../application/notifications.ports';
import type { NotificationEmailStatus, NotificationProps } from '../../domain/notification';
import { NOTIFICATIONS, NOTIFICATIONS_OCCURRENCE_KEY } from './notification.table';

type Row = Record<string, unknown>;
const N = NOTIFICATIONS.c;

@Injectable()
export class SqlNotificationRepository extends NotificationRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insertNew(rows: NotificationProps[]): Promise<NotificationProps[]> {
    if (rows.length === 0) return [];
    const { sql, params } = NOTIFICATIONS.insertMany(rows, `ON CONFLICT ON CONSTRAINT ${NOTIFICATIONS_OCCURRENCE_KEY} DO NOTHING RETURNING ${NOTIFICATIONS.select()}`);
    const inserted: Row[] = await this.tx.manager.query(sql, params);
    return inserted.map((row) => NOTIFICATIONS.fromRow(row));
  }

  async setEmailStatus(id: string, status: NotificationEmailStatus): Promise<void> {
    await this.tx.manager.query(`UPDATE ${NOTIFICATIONS.name} SET ${N.emailStatus} = $2 WHERE ${N.id} = $1`, [id, status]);
  }

  async list(filter: { workspaceId: string; campaignId?: string; limit: number }): Promise<NotificationProps[]> {
    const params: unknown[] = [filter.workspaceId, filter.limit];
    let where = `${N.workspaceId} = $1`;
    if (filter.campaignId) {
      params.push(filter.campaignId);
      where += ` AND ${N.campaignId} = $3`;
    }
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${NOTIFICATIONS.select()} FROM ${NOTIFICATIONS.name} WHERE ${where} ORDER BY ${N.createdAt} DESC, ${N.id} DESC LIMIT $2`,
      params,
    );
    return rows.map((row) => NOTIFICATIONS.fromRow(row));
  }
}
