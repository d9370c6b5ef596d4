import { Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, HumanOnly, Principal, Raises, RequireScope } from '@outreach/platform';
import { AppError, Clock } from '@outreach/core';
import { CreditStatus } from '../application/credit-status';
import { LedgerQueries } from '../application/ledger-queries';
import { RechargeQueries } from '../application/recharges';
import {
  BalanceResponse,
  LedgerPageResponse,
  LedgerQueryDto,
  OffsetQueryDto,
  ReceiptResponse,
  RechargeListResponse,
  RechargeResponse,
} from './credits.dto';

@Controller('credits')
export class CreditsController {
  constructor(
    private readonly status: CreditStatus,
    private readonly ledger: LedgerQueries,
    private readonly recharges: RechargeQueries,
    private readonly clock: Clock,
  ) {}

  @RequireScope('billing.view')
  @Get('balance')
  @ApiOperation({ summary: 'Wallet balance (integer minor units), trial end, and whether campaigns may spend' })
  @ApiOkResponse({ type: BalanceResponse })
  balance(@CurrentPrincipal() p: Principal): Promise<BalanceResponse> {
    return this.status.summary(p.workspaceId, this.clock.now());
  }

  @RequireScope('billing.view')
  @Get('ledger')
  @Raises('invalid_cursor', 'invalid_custom_range', 'no_recharge_found')
  @ApiOperation({ summary: 'Ledger entries, newest first (cursor pagination; periods in UTC)' })
  @ApiOkResponse({ type: LedgerPageResponse })
  async ledgerPage(@CurrentPrincipal() p: Principal, @Query() q: LedgerQueryDto): Promise<LedgerPageResponse> {
    const page = await this.ledger.page({
      workspaceId: p.workspaceId,
      period: q.period,
      kind: q.kind,
      from: q.from !== undefined ? new Date(q.from) : undefined,
      to: q.to !== undefined ? new Date(q.to) : undefined,
      cursor: q.cursor,
      limit: q.limit,
    });
    return {
      items: page.items.map((e) => ({
        id: e.id,
        kind: e.kind,
        debitKind: e.debitKind,
        amountMinor: e.amountMinor,
        balanceAfterMinor: e.balanceAfterMinor,
        currency: e.currency,
        reference: e.reference,
        description: e.description,
        createdAt: e.createdAt,
      })),
      nextCursor: page.nextCursor,
    };
  }

  @RequireScope('billing.view')
  @Get('recharges')
  @ApiOperation({ summary: 'Recharges (top-ups), newest first; an operator credit is a CREDITED recharge' })
  @ApiOkResponse({ type: RechargeListResponse })
  listRecharges(@CurrentPrincipal() p: Principal, @Query() q: OffsetQueryDto): Promise<RechargeListResponse> {
    return this.recharges.list(p.workspaceId, q.offset ?? 0, q.limit ?? 50);
  }

  @RequireScope('billing.view')
  @HumanOnly()
  @Post('recharges')
  @ApiOperation({ summary: 'Top up the wallet: a signed-in person only; API keys get 403 api_key_not_allowed' })
  createRecharge(): never {
    throw new AppError('api_key_not_allowed');
  }

  @RequireScope('billing.view')
  @Get('recharges/:orderId')
  @Raises('invalid_order_id', 'recharge_not_found')
  @ApiOperation({ summary: 'One recharge' })
  @ApiOkResponse({ type: RechargeResponse })
  getRecharge(@CurrentPrincipal() p: Principal, @Param('orderId') orderId: string): Promise<RechargeResponse> {
    return this.recharges.get(p.workspaceId, orderId);
  }

  @RequireScope('billing.view')
  @Get('recharges/:orderId/receipt')
  @Raises('invalid_order_id', 'recharge_not_found', 'receipt_not_available')
  @ApiOperation({ summary: 'Receipt of a CREDITED recharge (409 receipt_not_available before)' })
  @ApiOkResponse({ type: ReceiptResponse })
  receipt(@CurrentPrincipal() p: Principal, @Param('orderId') orderId: string): Promise<ReceiptResponse> {
    return this.recharges.receipt(p.workspaceId, orderId);
  }
}
