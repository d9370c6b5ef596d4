import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import {
  CommerceOrderRepository,
  CrmConnectionRepository,
  CrmImportRepository,
  CrmWebhookEvent,
  CrmWebhookEventRepository,
  OrderNotificationRepository,
  OrderRuleRepository,
} from '../../application/crm.ports';
import type { CommerceOrderProps } from '../../domain/commerce-order';
import type { CrmConnectionProps } from '../../domain/crm-connection';
import { CrmImportProps, IN_PROGRESS_IMPORT_STATUSES } from '../../domain/crm-import';
import { COMMERCE_ORDERS, CRM_CONNECTIONS, CRM_IMPORTS, CRM_ORDER_NOTIFICATIONS, CRM_ORDER_RULES, CRM_WEBHOOK_EVENTS } from './crm.tables';
import type { OrderEvent, OrderNotificationProps, OrderRuleProps } from '../../domain/order-rule';

type Row = Record<string, unknown>;
const C = CRM_CONNECTIONS.c;
const I = CRM_IMPORTS.c;
const E = CRM_WEBHOOK_EVENTS.c;

@Injectable()
export class SqlCrmConnectionRepository extends CrmConnectionRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(connection: CrmConnectionProps): Promise<void> {
    const { sql, params } = CRM_CONNECTIONS.insert(connection);
    await this.tx.manager.query(sql, params);
  }

  async find(workspaceId: string, id: string): Promise<CrmConnectionProps | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${CRM_CONNECTIONS.select()} FROM ${CRM_CONNECTIONS.name} WHERE ${C.id} = $1 AND ${C.workspaceId} = $2`, [id, workspaceId]);
    return rows.length ? CRM_CONNECTIONS.fromRow(rows[0]) : null;
  }

  async findById(id: string): Promise<CrmConnectionProps | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${CRM_CONNECTIONS.select()} FROM ${CRM_CONNECTIONS.name} WHERE ${C.id} = $1`, [id]);
    return rows.length ? CRM_CONNECTIONS.fromRow(rows[0]) : null;
  }

  async listActive(workspaceId: string): Promise<CrmConnectionProps[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CRM_CONNECTIONS.select()} FROM ${CRM_CONNECTIONS.name} WHERE ${C.workspaceId} = $1 AND ${C.status} = 'ACTIVE' ORDER BY ${C.connectedAt}, ${C.id}`,
      [workspaceId],
    );
    return rows.map((row) => CRM_CONNECTIONS.fromRow(row));
  }

  async update(connection: CrmConnectionProps): Promise<void> {
    const { sql, params } = CRM_CONNECTIONS.update(connection, ['id']);
    await this.tx.manager.query(sql, params);
  }
}

@Injectable()
export class SqlCrmImportRepository extends CrmImportRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(job: CrmImportProps): Promise<void> {
    const { sql, params } = CRM_IMPORTS.insert(job);
    await this.tx.manager.query(sql, params);
  }

  async find(workspaceId: string, campaignId: string, id: string): Promise<CrmImportProps | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CRM_IMPORTS.select()} FROM ${CRM_IMPORTS.name} WHERE ${I.id} = $1 AND ${I.workspaceId} = $2 AND ${I.campaignId} = $3`,
      [id, workspaceId, campaignId],
    );
    return rows.length ? CRM_IMPORTS.fromRow(rows[0]) : null;
  }

  async findForUpdate(id: string): Promise<CrmImportProps | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${CRM_IMPORTS.select()} FROM ${CRM_IMPORTS.name} WHERE ${I.id} = $1 FOR UPDATE`, [id]);
    return rows.length ? CRM_IMPORTS.fromRow(rows[0]) : null;
  }

  async update(job: CrmImportProps): Promise<void> {
    const { sql, params } = CRM_IMPORTS.update(job, ['id']);
    await this.tx.manager.query(sql, params);
  }

  async hasInProgress(workspaceId: string, campaignId: string): Promise<boolean> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT 1 FROM ${CRM_IMPORTS.name} WHERE ${I.workspaceId} = $1 AND ${I.campaignId} = $2 AND ${I.status} = ANY($3::text[]) LIMIT 1`,
      [workspaceId, campaignId, IN_PROGRESS_IMPORT_STATUSES],
    );
    return rows.length > 0;
  }
}

@Injectable()
export class SqlCrmWebhookEventRepository extends CrmWebhookEventRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insertIfNew(event: CrmWebhookEvent): Promise<boolean> {
    const { sql, params } = CRM_WEBHOOK_EVENTS.insert(event, `ON CONFLICT (${E.connectionId}, ${E.recordId}, ${E.phoneKey}) DO NOTHING RETURNING ${E.id}`);
    const rows: Row[] = await this.tx.manager.query(sql, params);
    return rows.length > 0;
  }

  async markDelivered(ids: readonly string[], campaignId: string, at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.tx.manager.query(`UPDATE ${CRM_WEBHOOK_EVENTS.name} SET ${E.campaignId} = $2, ${E.deliveredAt} = $3 WHERE ${E.id} = ANY($1::uuid[])`, [ids, campaignId, at]);
  }

  async takeDeferred(connectionId: string, limit: number): Promise<CrmWebhookEvent[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CRM_WEBHOOK_EVENTS.select()} FROM ${CRM_WEBHOOK_EVENTS.name}
        WHERE ${E.connectionId} = $1 AND ${E.deliveredAt} IS NULL
        ORDER BY ${E.receivedAt}, ${E.id} LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [connectionId, limit],
    );
    return rows.map((row) => CRM_WEBHOOK_EVENTS.fromRow(row));
  }

  async connectionsWithDeferred(limit: number): Promise<Array<{ workspaceId: string; connectionId: string }>> {
    const rows: Array<{ workspace_id: string; connection_id: string }> = await this.tx.manager.query(
      `SELECT DISTINCT ${E.workspaceId} AS workspace_id, ${E.connectionId} AS connection_id FROM ${CRM_WEBHOOK_EVENTS.name} WHERE ${E.deliveredAt} IS NULL LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ workspaceId: r.workspace_id, connectionId: r.connection_id }));
  }

  async countDeferred(connectionIds: readonly string[]): Promise<Map<string, number>> {
    if (connectionIds.length === 0) return new Map();
    const rows: Array<{ connection_id: string; n: number }> = await this.tx.manager.query(
      `SELECT ${E.connectionId} AS connection_id, count(*)::int AS n FROM ${CRM_WEBHOOK_EVENTS.name}
        WHERE ${E.connectionId} = ANY($1::uuid[]) AND ${E.deliveredAt} IS NULL GROUP BY ${E.connectionId}`,
      [connectionIds],
    );
    return new Map(rows.map((r) => [r.connection_id, r.n]));
  }
}

const O = COMMERCE_ORDERS.c;
const ORDER_MUTABLE = ['name', 'customerName', 'email', 'phone', 'currency', 'totalValue', 'financialStatus', 'fulfillmentStatus', 'cod', 'updatedAt'] as const;

@Injectable()
export class SqlCommerceOrderRepository extends CommerceOrderRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async upsert(order: CommerceOrderProps): Promise<string> {
    const set = ORDER_MUTABLE.map((k) => `${O[k]} = EXCLUDED.${O[k]}`).join(', ');
    const { sql, params } = COMMERCE_ORDERS.insert(order, `ON CONFLICT (${O.connectionId}, ${O.externalId}) DO UPDATE SET ${set} RETURNING ${O.id} AS id`);
    const rows: Array<{ id: string }> = await this.tx.manager.query(sql, params);
    return rows[0].id;
  }

  async findById(id: string): Promise<CommerceOrderProps | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${COMMERCE_ORDERS.select()} FROM ${COMMERCE_ORDERS.name} WHERE ${O.id} = $1`, [id]);
    return rows.length ? COMMERCE_ORDERS.fromRow(rows[0]) : null;
  }

  async page(workspaceId: string, page: { page: number; limit: number }): Promise<{ items: CommerceOrderProps[]; total: number }> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${COMMERCE_ORDERS.select()} FROM ${COMMERCE_ORDERS.name} WHERE ${O.workspaceId} = $1
        ORDER BY ${O.orderedAt} DESC, ${O.id} DESC OFFSET $2 LIMIT $3`,
      [workspaceId, (page.page - 1) * page.limit, page.limit],
    );
    const [{ total }]: Array<{ total: number }> = await this.tx.manager.query(`SELECT count(*)::int AS total FROM ${COMMERCE_ORDERS.name} WHERE ${O.workspaceId} = $1`, [workspaceId]);
    return { items: rows.map((row) => COMMERCE_ORDERS.fromRow(row)), total };
  }

  async since(connectionId: string, from: Date): Promise<CommerceOrderProps[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${COMMERCE_ORDERS.select()} FROM ${COMMERCE_ORDERS.name} WHERE ${O.connectionId} = $1 AND ${O.orderedAt} >= $2`,
      [connectionId, from],
    );
    return rows.map((row) => COMMERCE_ORDERS.fromRow(row));
  }
}

const R = CRM_ORDER_RULES.c;

@Injectable()
export class SqlOrderRuleRepository extends OrderRuleRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insert(rule: OrderRuleProps): Promise<boolean> {
    const { sql, params } = CRM_ORDER_RULES.insert(rule, `ON CONFLICT (${R.connectionId}, ${R.event}) DO NOTHING RETURNING ${R.id}`);
    const rows: Row[] = await this.tx.manager.query(sql, params);
    return rows.length > 0;
  }

  async find(workspaceId: string, connectionId: string, id: string): Promise<OrderRuleProps | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CRM_ORDER_RULES.select()} FROM ${CRM_ORDER_RULES.name} WHERE ${R.id} = $1 AND ${R.workspaceId} = $2 AND ${R.connectionId} = $3`,
      [id, workspaceId, connectionId],
    );
    return rows.length ? CRM_ORDER_RULES.fromRow(rows[0]) : null;
  }

  async findById(id: string): Promise<OrderRuleProps | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${CRM_ORDER_RULES.select()} FROM ${CRM_ORDER_RULES.name} WHERE ${R.id} = $1`, [id]);
    return rows.length ? CRM_ORDER_RULES.fromRow(rows[0]) : null;
  }

  async list(workspaceId: string, connectionId: string): Promise<OrderRuleProps[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CRM_ORDER_RULES.select()} FROM ${CRM_ORDER_RULES.name} WHERE ${R.workspaceId} = $1 AND ${R.connectionId} = $2 ORDER BY ${R.createdAt}, ${R.id}`,
      [workspaceId, connectionId],
    );
    return rows.map((row) => CRM_ORDER_RULES.fromRow(row));
  }

  async enabledFor(connectionId: string, event: OrderEvent): Promise<OrderRuleProps[]> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CRM_ORDER_RULES.select()} FROM ${CRM_ORDER_RULES.name} WHERE ${R.connectionId} = $1 AND ${R.event} = $2 AND ${R.enabled}`,
      [connectionId, event],
    );
    return rows.map((row) => CRM_ORDER_RULES.fromRow(row));
  }

  async update(rule: OrderRuleProps): Promise<boolean> {
    const { sql, params } = CRM_ORDER_RULES.update(rule, ['id']);
    try {
      await this.tx.manager.query(sql, params);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return false;
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    await this.tx.manager.query(`DELETE FROM ${CRM_ORDER_RULES.name} WHERE ${R.id} = $1`, [id]);
  }
}

const N = CRM_ORDER_NOTIFICATIONS.c;

@Injectable()
export class SqlOrderNotificationRepository extends OrderNotificationRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async insertIfNew(notification: OrderNotificationProps): Promise<boolean> {
    const { sql, params } = CRM_ORDER_NOTIFICATIONS.insert(notification, `ON CONFLICT (${N.ruleId}, ${N.orderId}) DO NOTHING RETURNING ${N.id}`);
    const rows: Row[] = await this.tx.manager.query(sql, params);
    return rows.length > 0;
  }

  async findForUpdate(id: string): Promise<OrderNotificationProps | null> {
    const rows: Row[] = await this.tx.manager.query(`SELECT ${CRM_ORDER_NOTIFICATIONS.select()} FROM ${CRM_ORDER_NOTIFICATIONS.name} WHERE ${N.id} = $1 FOR UPDATE`, [id]);
    return rows.length ? CRM_ORDER_NOTIFICATIONS.fromRow(rows[0]) : null;
  }

  async update(notification: OrderNotificationProps): Promise<void> {
    const { sql, params } = CRM_ORDER_NOTIFICATIONS.update(notification, ['id']);
    await this.tx.manager.query(sql, params);
  }

  async ofOrders(orderIds: readonly string[]): Promise<OrderNotificationProps[]> {
    if (orderIds.length === 0) return [];
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${CRM_ORDER_NOTIFICATIONS.select()} FROM ${CRM_ORDER_NOTIFICATIONS.name} WHERE ${N.orderId} = ANY($1::uuid[])`,
      [orderIds],
    );
    return rows.map((row) => CRM_ORDER_NOTIFICATIONS.fromRow(row));
  }
}
