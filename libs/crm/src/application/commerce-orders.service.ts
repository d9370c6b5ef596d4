import { Injectable } from '@nestjs/common';
import { CommerceOrderProps, orderPage } from '../domain/commerce-order';
import { CommerceOrderRepository } from './crm.ports';

export interface CommerceOrderView {
  id: string;
  connectionId: string;
  externalId: string;
  name: string;
  customerName: string | null;
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

const view = (o: CommerceOrderProps): CommerceOrderView => ({
  id: o.id,
  connectionId: o.connectionId,
  externalId: o.externalId,
  name: o.name,
  customerName: o.customerName,
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

/** Shop orders (told by the shop's webhooks). */
@Injectable()
export class CommerceOrders {
  constructor(private readonly orders: CommerceOrderRepository) {}

  /** GET /commerce/orders: newest first; 400 invalid_params for a bad page or limit. */
  async list(workspaceId: string, query: { page?: string; limit?: string }): Promise<{ items: CommerceOrderView[]; page: number; limit: number; total: number }> {
    const page = orderPage(query);
    const { items, total } = await this.orders.page(workspaceId, page);
    return { items: items.map(view), ...page, total };
  }
}
