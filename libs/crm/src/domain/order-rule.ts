import { AppError } from '@outreach/core';

/**
 * Order-notification rules (decisions.md 31.14): on an order event of a shop connection, send a
 * WhatsApp template of the workspace, or one of the presets (a template this service writes for
 * the workspace). One rule per (connection, event); a rule notifies an order at most once.
 */
export const ORDER_EVENTS = ['ORDER_CREATED', 'ORDER_PAID', 'ORDER_FULFILLED', 'ORDER_CANCELLED', 'ORDER_UPDATED'] as const;
export type OrderEvent = (typeof ORDER_EVENTS)[number];

/** What a preset becomes: a UTILITY template of the workspace, filled from the order (RUNTIME bindings). */
export interface OrderPreset {
  templateName: string;
  body: string;
  bindings: Array<{ placeholder: number; source: 'RUNTIME'; value: 'order_id' | 'order_total' }>;
}

export const ORDER_PRESETS = {
  order_confirmation: {
    templateName: 'order_confirmation_update',
    body: 'Thank you for your order {{1}} ({{2}}). We will message you when it ships.',
    bindings: [
      { placeholder: 1, source: 'RUNTIME', value: 'order_id' },
      { placeholder: 2, source: 'RUNTIME', value: 'order_total' },
    ],
  },
  payment_received: {
    templateName: 'order_payment_update',
    body: 'We received the payment of {{2}} for your order {{1}}.',
    bindings: [
      { placeholder: 1, source: 'RUNTIME', value: 'order_id' },
      { placeholder: 2, source: 'RUNTIME', value: 'order_total' },
    ],
  },
  order_shipped: {
    templateName: 'order_shipped_update',
    body: 'Good news: your order {{1}} is on its way.',
    bindings: [{ placeholder: 1, source: 'RUNTIME', value: 'order_id' }],
  },
  order_cancelled: {
    templateName: 'order_cancelled_update',
    body: 'Your order {{1}} was cancelled. Reply to this message if this is a mistake.',
    bindings: [{ placeholder: 1, source: 'RUNTIME', value: 'order_id' }],
  },
} as const satisfies Record<string, OrderPreset>;
export type OrderPresetName = keyof typeof ORDER_PRESETS;
export const ORDER_PRESET_NAMES = Object.keys(ORDER_PRESETS) as OrderPresetName[];

export interface OrderRuleProps {
  id: string;
  workspaceId: string;
  connectionId: string;
  event: OrderEvent;
  /** The WhatsApp template sent (the preset's own template when a preset was chosen). */
  templateId: string;
  preset: OrderPresetName | null;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** 400 template_or_preset_required when a rule names neither a template nor a preset; a template wins over nothing else: both is invalid_body. */
export function assertTemplateOrPreset(input: { templateId?: string | null; preset?: string | null }): void {
  const template = input.templateId ?? null;
  const preset = input.preset ?? null;
  if (template === null && preset === null) {
    throw new AppError('template_or_preset_required', { message: 'an order-notification rule sends a WhatsApp template (templateId) or a preset (preset)' });
  }
  if (template !== null && preset !== null) {
    throw new AppError('invalid_body', { message: 'give templateId or preset, not both', issues: [{ path: 'preset', message: 'templateId and preset are exclusive' }] });
  }
}

/** Shopify's order topics → the rule events they fire. */
export const SHOPIFY_ORDER_EVENTS: Readonly<Record<string, OrderEvent>> = {
  'orders/create': 'ORDER_CREATED',
  'orders/paid': 'ORDER_PAID',
  'orders/fulfilled': 'ORDER_FULFILLED',
  'orders/cancelled': 'ORDER_CANCELLED',
  'orders/updated': 'ORDER_UPDATED',
};

/** The states of one order notification (one table). */
export const ORDER_NOTIFICATION_STATUSES = ['PENDING', 'SENT', 'FAILED', 'SKIPPED'] as const;
export type OrderNotificationStatus = (typeof ORDER_NOTIFICATION_STATUSES)[number];

/** One rule × one order: written with the order event, sent by the worker (decisions.md 31.15). */
export interface OrderNotificationProps {
  id: string;
  workspaceId: string;
  connectionId: string;
  ruleId: string;
  orderId: string;
  event: OrderEvent;
  status: OrderNotificationStatus;
  /** The messaging module's message (null until SendMessage wrote one). */
  messageId: string | null;
  /** Why it was not sent: contact_opted_out, template_not_approved, … */
  reason: string | null;
  /** What the message cost (the workspace's message tariff when it was accepted), in minor units. */
  costMinor: number;
  createdAt: Date;
  attemptedAt: Date | null;
}
