import { AppError } from '@outreach/core';
import type { OrderNotificationProps } from './order-rule';

/** An order as a shop's webhook tells it (Shopify orders/*), before it is stored. */
export interface OrderRecord {
  externalId: string;
  name: string;
  /** The customer's name, when the shop tells it. */
  customerName: string | null;
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

/** What became of a notification's message (messaging's message, read through its exported queries). */
export interface NotifiedMessage {
  id: string;
  status: string;
  /** When the message went out: SENT's time, else its first report's (a report may precede SENT). */
  sentAt: Date | null;
  replies: number;
  optedOutByReply: boolean;
}

const ACCEPTED = new Set(['SENT', 'DELIVERED', 'READ']);
const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The summary of the orders placed in a window and of their order updates (decisions.md 31.16):
 * `orders` are the window's orders; a notification is *attempted* when the worker handed it to
 * messaging (SENT or FAILED; not SKIPPED: no phone, opted out, rule gone); an order is *notified*
 * when one of its messages was accepted and has not failed since (SENT, DELIVERED or READ).
 */
export function summarise(
  orders: readonly Pick<CommerceOrderProps, 'id' | 'phone' | 'totalValue' | 'cod' | 'currency' | 'orderedAt'>[],
  notifications: readonly Pick<OrderNotificationProps, 'orderId' | 'event' | 'status' | 'messageId' | 'reason' | 'costMinor'>[] = [],
  messages: readonly NotifiedMessage[] = [],
): OrderUpdatesSummary {
  const byId = new Map(messages.map((m) => [m.id, m]));
  const messageOf = (n: { messageId: string | null }) => (n.messageId ? byId.get(n.messageId) : undefined);
  const attempted = notifications.filter((n) => n.status === 'SENT' || n.status === 'FAILED');
  const notified = notifications.filter((n) => n.status === 'SENT' && ACCEPTED.has(messageOf(n)?.status ?? ''));
  const notifiedOrders = new Set(notified.map((n) => n.orderId));
  const spendMinor = notifications.filter((n) => n.status === 'SENT').reduce((sum, n) => sum + n.costMinor, 0);
  const firstUpdate = new Map<string, number>();
  for (const n of notified) {
    const at = messageOf(n)?.sentAt?.getTime();
    if (at !== undefined) firstUpdate.set(n.orderId, Math.min(firstUpdate.get(n.orderId) ?? Infinity, at));
  }
  const minutes = orders.filter((o) => firstUpdate.has(o.id)).map((o) => Math.max(0, (firstUpdate.get(o.id)! - o.orderedAt.getTime()) / 60_000));
  const totalValue = orders.reduce((sum, o) => sum + o.totalValue, 0);
  const notifiedValue = orders.filter((o) => notifiedOrders.has(o.id)).reduce((sum, o) => sum + o.totalValue, 0);
  const spend = spendMinor / 100;
  return {
    orders: orders.length,
    ordersWithPhone: orders.filter((o) => o.phone !== null && o.phone.trim() !== '').length,
    ordersNotified: notifiedOrders.size,
    attempted: attempted.length,
    delivered: attempted.filter((n) => ['DELIVERED', 'READ'].includes(messageOf(n)?.status ?? '')).length,
    read: attempted.filter((n) => messageOf(n)?.status === 'READ').length,
    failed: attempted.filter((n) => n.status === 'FAILED' || messageOf(n)?.status === 'FAILED').length,
    // No module records a click on a link in a message (messages carry no tracked links): 0 (decisions.md 31.16).
    clicks: 0,
    replies: attempted.reduce((sum, n) => sum + (messageOf(n)?.replies ?? 0), 0),
    spend: round(spend, 2),
    costPerNotifiedOrder: notifiedOrders.size ? round(spend / notifiedOrders.size, 4) : 0,
    medianMinutesToFirstUpdate: round(median(minutes), 2),
    optOuts: notifications.filter((n) => n.reason === 'contact_opted_out').length + attempted.filter((n) => messageOf(n)?.optedOutByReply).length,
    shippedNotified: new Set(notified.filter((n) => n.event === 'ORDER_FULFILLED').map((n) => n.orderId)).size,
    notifiedValue: round(notifiedValue, 2),
    totalValue: round(totalValue, 2),
    codOrders: orders.filter((o) => o.cod).length,
    currencies: [...new Set(orders.map((o) => o.currency))].sort(),
  };
}
