import { AppError } from '@outreach/core';

/** An order as a shop's webhook tells it (Shopify orders/*), before it is stored. */
export interface OrderRecord {
  externalId: string;
  name: string;
  email: string | null;
  phone: string | null;
  currency: string;
  /** The order's total in the currency's major unit (Shopify's total_price). */
  totalValue: number;
  financialStatus: string | null;
  fulfillmentStatus: string | null;
  /** Paid on delivery (a cash-on-delivery gateway). */
  cod: boolean;
  orderedAt: Date;
}

export interface CommerceOrderProps extends OrderRecord {
  id: string;
  workspaceId: string;
  connectionId: string;
  receivedAt: Date;
  updatedAt: Date;
}

/** GET /commerce/orders: `page` ≥ 1 (default 1), `limit` 1–100 (default 20); else 400 invalid_params (decisions.md 31.12). */
export function orderPage(query: { page?: string; limit?: string }): { page: number; limit: number } {
  const read = (name: 'page' | 'limit', fallback: number, max: number): number => {
    const raw = query[name];
    if (raw === undefined) return fallback;
    const value = /^[0-9]{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= 1 && value <= max)) {
      throw new AppError('invalid_params', {
        message: `${name} must be a whole number from 1${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}`,
        issues: [{ path: name, message: `expected a whole number from 1${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}` }],
      });
    }
    return value;
  };
  return { page: read('page', 1, Number.MAX_SAFE_INTEGER), limit: read('limit', 20, 100) };
}

/** The contract's order-updates summary: every number ≥ 0. */
export interface OrderUpdatesSummary {
  orders: number;
  ordersWithPhone: number;
  ordersNotified: number;
  attempted: number;
  delivered: number;
  read: number;
  failed: number;
  clicks: number;
  replies: number;
  spend: number;
  costPerNotifiedOrder: number;
  medianMinutesToFirstUpdate: number;
  optOuts: number;
  shippedNotified: number;
  notifiedValue: number;
  totalValue: number;
  codOrders: number;
  currencies: string[];
}

/**
 * The summary of the orders of a window. Order updates (WhatsApp notifications) need the messaging
 * module and order-notification rules, not built yet: no order has been notified, so every
 * notification figure is 0 (decisions.md 31.12).
 */
export function summarise(orders: readonly Pick<OrderRecord, 'phone' | 'totalValue' | 'cod' | 'currency'>[]): OrderUpdatesSummary {
  const totalValue = orders.reduce((sum, o) => sum + o.totalValue, 0);
  return {
    orders: orders.length,
    ordersWithPhone: orders.filter((o) => o.phone !== null && o.phone.trim() !== '').length,
    ordersNotified: 0,
    attempted: 0,
    delivered: 0,
    read: 0,
    failed: 0,
    clicks: 0,
    replies: 0,
    spend: 0,
    costPerNotifiedOrder: 0,
    medianMinutesToFirstUpdate: 0,
    optOuts: 0,
    shippedNotified: 0,
    notifiedValue: 0,
    totalValue: Math.round(totalValue * 100) / 100,
    codOrders: orders.filter((o) => o.cod).length,
    currencies: [...new Set(orders.map((o) => o.currency))].sort(),
  };
}
