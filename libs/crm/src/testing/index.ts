// In-memory fakes of the crm module's ports, for use-case specs (no database, no network).
import {
  CommerceOrderRepository,
  CrmConnectionRepository,
  CredentialSealer,
  CrmCredentials,
  CrmImportRepository,
  CrmWebhookEvent,
  CrmWebhookEventRepository,
  OrderNotificationRepository,
  OrderRuleRepository,
} from '../application/crm.ports';
import type { CommerceOrderProps } from '../domain/commerce-order';
import type { OrderEvent, OrderNotificationProps, OrderRuleProps } from '../domain/order-rule';
import type { CrmConnectionProps } from '../domain/crm-connection';
import { CrmImportProps, IN_PROGRESS_IMPORT_STATUSES } from '../domain/crm-import';

const copy = <T>(value: T): T => structuredClone(value);

export class InMemoryCrmConnectionRepository extends CrmConnectionRepository {
  readonly rows = new Map<string, CrmConnectionProps>();

  async insert(connection: CrmConnectionProps): Promise<void> {
    this.rows.set(connection.id, copy(connection));
  }

  async find(workspaceId: string, id: string): Promise<CrmConnectionProps | null> {
    const row = this.rows.get(id);
    return row && row.workspaceId === workspaceId ? copy(row) : null;
  }

  async findById(id: string): Promise<CrmConnectionProps | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  async listActive(workspaceId: string): Promise<CrmConnectionProps[]> {
    return [...this.rows.values()].filter((c) => c.workspaceId === workspaceId && c.status === 'ACTIVE').map(copy);
  }

  async update(connection: CrmConnectionProps): Promise<void> {
    this.rows.set(connection.id, copy(connection));
  }
}

export class InMemoryCrmImportRepository extends CrmImportRepository {
  readonly rows = new Map<string, CrmImportProps>();

  async insert(job: CrmImportProps): Promise<void> {
    this.rows.set(job.id, copy(job));
  }

  async find(workspaceId: string, campaignId: string, id: string): Promise<CrmImportProps | null> {
    const row = this.rows.get(id);
    return row && row.workspaceId === workspaceId && row.campaignId === campaignId ? copy(row) : null;
  }

  async findForUpdate(id: string): Promise<CrmImportProps | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  async update(job: CrmImportProps): Promise<void> {
    this.rows.set(job.id, copy(job));
  }

  async hasInProgress(workspaceId: string, campaignId: string): Promise<boolean> {
    return [...this.rows.values()].some((j) => j.workspaceId === workspaceId && j.campaignId === campaignId && IN_PROGRESS_IMPORT_STATUSES.includes(j.status));
  }
}

export class InMemoryCrmWebhookEventRepository extends CrmWebhookEventRepository {
  readonly rows = new Map<string, CrmWebhookEvent>();

  async insertIfNew(event: CrmWebhookEvent): Promise<boolean> {
    const clash = [...this.rows.values()].some((e) => e.connectionId === event.connectionId && e.recordId === event.recordId && e.phoneKey === event.phoneKey);
    if (clash) return false;
    this.rows.set(event.id, copy(event));
    return true;
  }

  async markDelivered(ids: readonly string[], campaignId: string, at: Date): Promise<void> {
    for (const id of ids) Object.assign(this.rows.get(id)!, { campaignId, deliveredAt: at });
  }

  async takeDeferred(connectionId: string, limit: number): Promise<CrmWebhookEvent[]> {
    return [...this.rows.values()].filter((e) => e.connectionId === connectionId && !e.deliveredAt).slice(0, limit).map(copy);
  }

  async connectionsWithDeferred(limit: number): Promise<Array<{ workspaceId: string; connectionId: string }>> {
    const seen = new Map<string, string>();
    for (const e of this.rows.values()) if (!e.deliveredAt) seen.set(e.connectionId, e.workspaceId);
    return [...seen].slice(0, limit).map(([connectionId, workspaceId]) => ({ workspaceId, connectionId }));
  }

  async countDeferred(connectionIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const e of this.rows.values()) if (!e.deliveredAt && connectionIds.includes(e.connectionId)) counts.set(e.connectionId, (counts.get(e.connectionId) ?? 0) + 1);
    return counts;
  }
}

/** Not encryption: a reversible wrapping that still binds the credentials to their connection id. */
export class PlainCredentialSealer extends CredentialSealer {
  seal(credentials: CrmCredentials, connectionId: string): string {
    return JSON.stringify({ connectionId, credentials });
  }

  open(sealed: string, connectionId: string): CrmCredentials {
    const parsed = JSON.parse(sealed) as { connectionId: string; credentials: CrmCredentials };
    if (parsed.connectionId !== connectionId) throw new Error('sealed for another connection');
    return parsed.credentials;
  }
}
export class InMemoryOrderRuleRepository extends OrderRuleRepository {
  readonly rows = new Map<string, OrderRuleProps>();

  async insert(rule: OrderRuleProps): Promise<boolean> {
    if ([...this.rows.values()].some((r) => r.connectionId === rule.connectionId && r.event === rule.event)) return false;
    this.rows.set(rule.id, copy(rule));
    return true;
  }

  async find(workspaceId: string, connectionId: string, id: string): Promise<OrderRuleProps | null> {
    const row = this.rows.get(id);
    return row && row.workspaceId === workspaceId && row.connectionId === connectionId ? copy(row) : null;
  }

  async findById(id: string): Promise<OrderRuleProps | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  async list(workspaceId: string, connectionId: string): Promise<OrderRuleProps[]> {
    return [...this.rows.values()].filter((r) => r.workspaceId === workspaceId && r.connectionId === connectionId).map(copy);
  }

  async enabledFor(connectionId: string, event: OrderEvent): Promise<OrderRuleProps[]> {
    return [...this.rows.values()].filter((r) => r.connectionId === connectionId && r.event === event && r.enabled).map(copy);
  }

  async update(rule: OrderRuleProps): Promise<boolean> {
    if ([...this.rows.values()].some((r) => r.id !== rule.id && r.connectionId === rule.connectionId && r.event === rule.event)) return false;
    this.rows.set(rule.id, copy(rule));
    return true;
  }

  async delete(id: string): Promise<void> {
    this.rows.delete(id);
  }
}

export class InMemoryOrderNotificationRepository extends OrderNotificationRepository {
  readonly rows = new Map<string, OrderNotificationProps>();

  async insertIfNew(notification: OrderNotificationProps): Promise<boolean> {
    if ([...this.rows.values()].some((n) => n.ruleId === notification.ruleId && n.orderId === notification.orderId)) return false;
    this.rows.set(notification.id, copy(notification));
    return true;
  }

  async findForUpdate(id: string): Promise<OrderNotificationProps | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  async update(notification: OrderNotificationProps): Promise<void> {
    this.rows.set(notification.id, copy(notification));
  }

  async ofOrders(orderIds: readonly string[]): Promise<OrderNotificationProps[]> {
    return [...this.rows.values()].filter((n) => orderIds.includes(n.orderId)).map(copy);
  }
}

export class InMemoryCommerceOrderRepository extends CommerceOrderRepository {
  readonly rows = new Map<string, CommerceOrderProps>();

  async upsert(order: CommerceOrderProps): Promise<string> {
    const known = [...this.rows.values()].find((o) => o.connectionId === order.connectionId && o.externalId === order.externalId);
    const id = known?.id ?? order.id;
    this.rows.set(id, copy({ ...order, id, receivedAt: known?.receivedAt ?? order.receivedAt }));
    return id;
  }

  async findById(id: string): Promise<CommerceOrderProps | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  async page(workspaceId: string, page: { page: number; limit: number }): Promise<{ items: CommerceOrderProps[]; total: number }> {
    const all = [...this.rows.values()].filter((o) => o.workspaceId === workspaceId).sort((a, b) => b.orderedAt.getTime() - a.orderedAt.getTime());
    return { items: all.slice((page.page - 1) * page.limit, page.page * page.limit).map(copy), total: all.length };
  }

  async since(connectionId: string, from: Date): Promise<CommerceOrderProps[]> {
    return [...this.rows.values()].filter((o) => o.connectionId === connectionId && o.orderedAt >= from).map(copy);
  }
}

export { SandboxCrmProvider } from '../infrastructure/providers/sandbox-crm.provider';
