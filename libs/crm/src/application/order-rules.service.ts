import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Clock, isUuid } from '@outreach/core';
import { WhatsappTemplates } from '@outreach/messaging';
import { assertTemplateOrPreset, ORDER_PRESETS, OrderEvent, OrderPresetName, OrderRuleProps } from '../domain/order-rule';
import { OrderRuleRepository } from './crm.ports';
import { CrmConnections } from './crm-connections.service';

export interface OrderRuleView {
  id: string;
  connectionId: string;
  event: OrderEvent;
  templateId: string;
  preset: OrderPresetName | null;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface OrderRuleInput {
  event?: OrderEvent;
  templateId?: string | null;
  preset?: OrderPresetName | null;
  enabled?: boolean;
}

const view = (r: OrderRuleProps): OrderRuleView => ({
  id: r.id,
  connectionId: r.connectionId,
  event: r.event,
  templateId: r.templateId,
  preset: r.preset,
  enabled: r.enabled,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** The language of the templates presets become. */
const PRESET_LANGUAGE = 'en';

/**
 * Order-notification rules of a shop connection (decisions.md 31.14): CRUD. A rule names a
 * WhatsApp template of the workspace (400 template_not_found otherwise) or a preset, which becomes
 * a template of the workspace (written and submitted for review once, then reused). Checks in
 * order: 404 crm_connection_not_found → 400 crm_connection_not_active → 400 invalid_request (the
 * provider tells no orders) → 400 template_or_preset_required → 400 invalid_request (the connection
 * has a rule for that event) → 400 template_not_found. Nothing is written before all pass.
 */
@Injectable()
export class OrderRules {
  constructor(
    private readonly rules: OrderRuleRepository,
    private readonly connections: CrmConnections,
    private readonly templates: WhatsappTemplates,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, connectionId: string, input: OrderRuleInput & { event: OrderEvent }): Promise<OrderRuleView> {
    await this.shopConnection(workspaceId, connectionId);
    assertTemplateOrPreset(input);
    if ((await this.rules.list(workspaceId, connectionId)).some((r) => r.event === input.event)) throw eventTaken(input.event);
    const templateId = await this.templateFor(workspaceId, input);
    const now = this.clock.now();
    const rule: OrderRuleProps = {
      id: randomUUID(),
      workspaceId,
      connectionId,
      event: input.event,
      templateId,
      preset: input.preset ?? null,
      enabled: input.enabled ?? true,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.rules.insert(rule))) throw eventTaken(input.event);
    return view(rule);
  }

  async list(workspaceId: string, connectionId: string): Promise<OrderRuleView[]> {
    const connection = await this.connections.require(workspaceId, connectionId);
    return (await this.rules.list(workspaceId, connection.id)).map(view);
  }

  async get(workspaceId: string, connectionId: string, id: string): Promise<OrderRuleView> {
    return view(await this.require(workspaceId, connectionId, id));
  }

  /** PATCH: event, enabled, and templateId or preset (one replaces the other). */
  async update(workspaceId: string, connectionId: string, id: string, changes: OrderRuleInput): Promise<OrderRuleView> {
    if (Object.values(changes).every((v) => v === undefined)) throw new AppError('no_fields_to_update', { message: 'give event, templateId, preset or enabled' });
    await this.shopConnection(workspaceId, connectionId);
    const rule = await this.require(workspaceId, connectionId, id);
    if (changes.templateId !== undefined || changes.preset !== undefined) {
      assertTemplateOrPreset(changes);
      rule.templateId = await this.templateFor(workspaceId, changes);
      rule.preset = changes.preset ?? null;
    }
    if (changes.event !== undefined) rule.event = changes.event;
    if (changes.enabled !== undefined) rule.enabled = changes.enabled;
    rule.updatedAt = this.clock.now();
    if (!(await this.rules.update(rule))) throw eventTaken(rule.event);
    return view(rule);
  }

  /** DELETE: the rule stops; the notifications it sent stay (the summary counts them). */
  async remove(workspaceId: string, connectionId: string, id: string): Promise<void> {
    const rule = await this.require(workspaceId, connectionId, id);
    await this.rules.delete(rule.id);
  }

  private async require(workspaceId: string, connectionId: string, id: string): Promise<OrderRuleProps> {
    const connection = await this.connections.require(workspaceId, connectionId);
    const rule = isUuid(id) ? await this.rules.find(workspaceId, connection.id, id) : null;
    if (!rule) throw new AppError('not_found', { message: `no order-notification rule ${id} on this connection` });
    return rule;
  }

  private async shopConnection(workspaceId: string, connectionId: string): Promise<void> {
    const connection = await this.connections.requireActive(workspaceId, connectionId);
    const provider = this.connections.provider(connection);
    if (!provider.info.capabilities.orders) {
      throw new AppError('invalid_request', { message: `${provider.info.name} tells no orders: order-notification rules need a shop connection` });
    }
  }

  /** The template's id (400 template_not_found for an id not in the workspace), or the preset's template, written on first use. */
  private async templateFor(workspaceId: string, input: OrderRuleInput): Promise<string> {
    if (input.templateId) {
      if (!isUuid(input.templateId)) throw new AppError('template_not_found', { message: `no WhatsApp template ${input.templateId}` });
      return (await this.templates.get(workspaceId, input.templateId)).id;
    }
    const preset = ORDER_PRESETS[input.preset as OrderPresetName];
    const existing = (await this.templates.list(workspaceId)).find((t) => t.name === preset.templateName && t.language === PRESET_LANGUAGE);
    if (existing) return existing.id;
    const created = await this.templates.create(workspaceId, {
      name: preset.templateName,
      language: PRESET_LANGUAGE,
      category: 'UTILITY',
      body: preset.body,
      footer: null,
      bindings: preset.bindings.map((b) => ({ ...b })),
    });
    await this.templates.submit(workspaceId, created.id);
    return created.id;
  }
}

const eventTaken = (event: OrderEvent) =>
  new AppError('invalid_request', { message: `the connection has a rule for ${event} already (change or delete it)`, issues: [{ path: 'event', message: 'one rule per event' }] });
