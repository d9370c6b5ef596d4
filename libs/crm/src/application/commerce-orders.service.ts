import { Injectable } from '@nestjs/common';
import { Clock } from '@outreach/core';
import { CommerceOrderProps, orderPage, OrderUpdatesSummary, summarise } from '../domain/commerce-order';
import { CommerceOrderRepository } from './crm.ports';
import { CrmConnections } from './crm-connections.service';

export interface CommerceOrderView {
  id: string;
  connectionId: string;
  externalId: string;
  name: string;
  email: string | null;
  phone: string | null;
  currency: string;
  totalValue: number;
  financialStatus: string | null;
  fulfillmentStatus: string | null;
  cod: boolean;
  orderedAt: string;
  updatedAt: string;
}

const DAY_MS = 24 * 3600 * 1000;

const view = (o: CommerceOrderProps): CommerceOrderView => ({
  id: o.id,
  connectionId: o.connectionId,
  externalId: o.externalId,
  name: o.name,
  email: o.email,
  phone: o.phone,
  currency: o.currency,
  totalValue: o.totalValue,
  financialStatus: o.financialStatus,
  fulfillmentStatus: o.fulfillmentStatus,
  cod: o.cod,
  orderedAt: o.orderedAt.toISOString(),
  updatedAt: o.updatedAt.toISOString(),
});

/** Shop orders (told by the shop's webhooks) and the order-updates summary of a connection. */
@Injectable()
export class CommerceOrders {
  constructor(
    private readonly orders: CommerceOrderRepository,
    private readonly connections: CrmConnections,
    private readonly clock: Clock,
  ) {}

  /** GET /commerce/orders: newest first; 400 invalid_params for a bad page or limit. */
  async list(workspaceId: string, query: { page?: string; limit?: string }): Promise<{ items: CommerceOrderView[]; page: number; limit: number; total: number }> {
    const page = orderPage(query);
    const { items, total } = await this.orders.page(workspaceId, page);
    return { items: items.map(view), ...page, total };
  }

  /** GET /crm/connections/{id}/order-updates/summary: orders placed in the last `days` days. */
  async summary(workspaceId: string, connectionId: string, days: number): Promise<OrderUpdatesSummary> {
    const connection = await this.connections.require(workspaceId, connectionId);
    const from = new Date(this.clock.now().getTime() - days * DAY_MS);
    return summarise(await this.orders.since(connection.id, from));
  }
}
