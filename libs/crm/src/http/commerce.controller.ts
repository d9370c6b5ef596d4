import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AnswerErrors, CurrentPrincipal, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import { CommerceOrders, CommerceOrderView } from '../application/commerce-orders.service';
import { OrderUpdatesSummary } from '../domain/commerce-order';
import { CommerceOrdersPage, CommerceOrdersQueryDto, OrderUpdatesSummaryQueryDto, OrderUpdatesSummaryResponse } from './crm.dto';

/** Shop orders (told by the shop's webhooks) and the order-updates summary. */
@RequireFeature('crm')
@Controller()
export class CommerceController {
  constructor(private readonly orders: CommerceOrders) {}

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
  @ApiOperation({ summary: "The connection's orders of the last `days` days and their WhatsApp updates (none sent yet: the messaging module is not built)" })
  @ApiOkResponse({ type: OrderUpdatesSummaryResponse })
  summary(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Query() q: OrderUpdatesSummaryQueryDto): Promise<OrderUpdatesSummary> {
    return this.orders.summary(p.workspaceId, id, q.days ?? 30);
  }
}
