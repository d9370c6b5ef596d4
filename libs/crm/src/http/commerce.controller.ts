import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AnswerErrors, CurrentPrincipal, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import { CommerceOrders, CommerceOrderView } from '../application/commerce-orders.service';
import { OrderNotifications } from '../application/order-notifications.service';
import { OrderRules, OrderRuleView } from '../application/order-rules.service';
import { OrderUpdatesSummary } from '../domain/commerce-order';
import {
  CommerceOrdersPage,
  CommerceOrdersQueryDto,
  CreateOrderRuleDto,
  OrderRuleResponse,
  OrderRulesResponse,
  OrderUpdatesSummaryQueryDto,
  OrderUpdatesSummaryResponse,
  UpdateOrderRuleDto,
} from './crm.dto';

const RULE_CHECKS = ['crm_connection_not_found', 'crm_connection_not_active', 'invalid_request', 'template_or_preset_required', 'template_not_found'] as const;

/** Shop orders (told by the shop's webhooks), order-notification rules and the order-updates summary (decisions.md 31.12–31.16). */
@RequireFeature('crm')
@Controller()
export class CommerceController {
  constructor(
    private readonly orders: CommerceOrders,
    private readonly rules: OrderRules,
    private readonly notifications: OrderNotifications,
  ) {}

  @RequireScope('crm.view')
  @Get('commerce/orders')
  @Raises('invalid_params')
  @ApiOperation({ summary: "The workspace's shop orders, newest first (page-number paging: page ≥ 1, limit 1–100)" })
  @ApiOkResponse({ type: CommerceOrdersPage })
  list(@CurrentPrincipal() p: Principal, @Query() q: CommerceOrdersQueryDto): Promise<{ items: CommerceOrderView[]; page: number; limit: number; total: number }> {
    return this.orders.list(p.workspaceId, { page: q.page, limit: q.limit });
  }

  @RequireScope('crm.view')
  @Get('crm/connections/:id/order-updates/summary')
  @Raises('crm_connection_not_found')
  @AnswerErrors({ crm_connection_not_found: 404 })
  @ApiOperation({ summary: "The connection's orders of the last `days` days and the WhatsApp updates its order-notification rules sent about them" })
  @ApiOkResponse({ type: OrderUpdatesSummaryResponse })
  summary(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Query() q: OrderUpdatesSummaryQueryDto): Promise<OrderUpdatesSummary> {
    return this.notifications.summary(p.workspaceId, id, q.days ?? 30);
  }

  @RequireScope('crm.edit')
  @Post('crm/connections/:id/order-rules')
  @Raises(...RULE_CHECKS)
  @AnswerErrors({ crm_connection_not_found: 404, template_not_found: 400 })
  @ApiOperation({ summary: 'On an order event of this shop connection, send a WhatsApp template or a preset to the order’s phone (one rule per event)' })
  @ApiCreatedResponse({ type: OrderRuleResponse })
  createRule(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: CreateOrderRuleDto): Promise<OrderRuleView> {
    return this.rules.create(p.workspaceId, id, body);
  }

  @RequireScope('crm.view')
  @Get('crm/connections/:id/order-rules')
  @Raises('crm_connection_not_found')
  @AnswerErrors({ crm_connection_not_found: 404 })
  @ApiOperation({ summary: "The connection's order-notification rules, oldest first" })
  @ApiOkResponse({ type: OrderRulesResponse })
  async listRules(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<{ rules: OrderRuleView[] }> {
    return { rules: await this.rules.list(p.workspaceId, id) };
  }

  @RequireScope('crm.view')
  @Get('crm/connections/:id/order-rules/:ruleId')
  @Raises('crm_connection_not_found', 'not_found')
  @AnswerErrors({ crm_connection_not_found: 404 })
  @ApiOperation({ summary: 'One order-notification rule' })
  @ApiOkResponse({ type: OrderRuleResponse })
  getRule(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Param('ruleId') ruleId: string): Promise<OrderRuleView> {
    return this.rules.get(p.workspaceId, id, ruleId);
  }

  @RequireScope('crm.edit')
  @Patch('crm/connections/:id/order-rules/:ruleId')
  @Raises(...RULE_CHECKS, 'not_found', 'no_fields_to_update')
  @AnswerErrors({ crm_connection_not_found: 404, template_not_found: 400 })
  @ApiOperation({ summary: 'Change a rule: its event, enabled, or what it sends (templateId or preset)' })
  @ApiOkResponse({ type: OrderRuleResponse })
  updateRule(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Param('ruleId') ruleId: string, @Body() body: UpdateOrderRuleDto): Promise<OrderRuleView> {
    return this.rules.update(p.workspaceId, id, ruleId, body);
  }

  @RequireScope('crm.edit')
  @Delete('crm/connections/:id/order-rules/:ruleId')
  @HttpCode(204)
  @Raises('crm_connection_not_found', 'not_found')
  @AnswerErrors({ crm_connection_not_found: 404 })
  @ApiOperation({ summary: 'Delete a rule: it sends nothing more; the updates it sent stay in the summary' })
  @ApiNoContentResponse()
  async deleteRule(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Param('ruleId') ruleId: string): Promise<void> {
    await this.rules.remove(p.workspaceId, id, ruleId);
  }
}
