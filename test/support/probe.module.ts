import { Body, Controller, Get, HttpCode, Injectable, Module, Param, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import {
  AnyApiKey,
  AppError,
  CurrentPrincipal,
  HumanOnly,
  Idempotent,
  InvalidBodyStatus,
  Principal,
  RequireFeature,
  RequireScope,
} from '@outreach/platform';

class ProbeChild {
  @IsString() @Length(1, 10) label: string;
}

class ProbeBody {
  @IsString() @Length(1, 20) name: string;
  @IsOptional() @IsInt() @Min(1) @Max(10) count?: number;
  @IsOptional() @ValidateNested() @Type(() => ProbeChild) child?: ProbeChild;
}

@InvalidBodyStatus(422)
class ProbeBody422 extends ProbeBody {}

class ProbeQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit?: number;
}

class ProbeChargeBody {
  @IsString() @Length(1, 50) item: string;
  @IsOptional() @IsInt() @Min(1) @Max(1000) amount?: number;
  /** ok → 201; bad → 400 invalid_request (stored); boom → 500 (key released). */
  @IsOptional() @IsIn(['ok', 'bad', 'boom']) outcome?: 'ok' | 'bad' | 'boom';
}

/**
 * Counts executions of the idempotent probe routes, and can hold them at a gate so a test
 * controls when the first request finishes (real concurrency without sleeping).
 */
@Injectable()
export class ProbeExecutions {
  count = 0;
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;
  private toHold = 0;

  reset(): void {
    this.count = 0;
    this.release();
  }

  /** The next `handlers` handlers to enter (all by default) wait until `release()`. */
  hold(handlers = Number.POSITIVE_INFINITY): void {
    this.toHold = handlers;
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open?.();
    this.gate = null;
    this.open = null;
    this.toHold = 0;
  }

  async run<T>(work: () => T): Promise<T> {
    this.count++;
    if (this.gate && this.toHold > 0) {
      this.toHold--;
      await this.gate;
    }
    return work();
  }
}

/**
 * Test-only routes that exercise the platform before real modules use every rule: one per access
 * rule, the validation pipe, and the codes that later modules raise (prompt, operator).
 */
@Controller()
class ProbeController {
  constructor(private readonly executions: ProbeExecutions) {}

  @RequireScope('billing.view')
  @Idempotent()
  @Post('probe/charges/:account')
  charge(@CurrentPrincipal() p: Principal, @Param('account') account: string, @Body() body: ProbeChargeBody) {
    return this.executions.run(() => {
      if (body.outcome === 'bad') throw new AppError('invalid_request', { message: 'probe says no' });
      if (body.outcome === 'boom') throw new Error('probe crashed');
      return { chargeNo: this.executions.count, account, item: body.item, amount: body.amount ?? 1, workspaceId: p.workspaceId };
    });
  }

  @RequireScope('calls.edit')
  @Idempotent({ reusedStatus: 409 })
  @Post('probe/test-call')
  testCall(@Body() body: ProbeChargeBody) {
    return this.executions.run(() => ({ callNo: this.executions.count, item: body.item }));
  }

  @RequireScope('campaigns.view')
  @Get('v1/probe/scoped')
  v1Scoped(@CurrentPrincipal() p: Principal) {
    return { workspaceId: p.workspaceId };
  }

  @RequireScope('agents.edit')
  @Get('probe/scoped')
  scoped(@CurrentPrincipal() p: Principal) {
    return { workspaceId: p.workspaceId };
  }

  @RequireScope('billing.edit')
  @HumanOnly()
  @Post('probe/top-up')
  topUp() {
    return { ok: true };
  }

  @AnyApiKey()
  @RequireFeature('api_results', 'api_results_not_enabled')
  @Get('v1/probe/feature')
  feature() {
    return { ok: true };
  }

  @RequireScope('exports.view')
  @RequireFeature('exports')
  @Get('probe/exports-feature')
  exportsFeature() {
    return { ok: true };
  }

  @RequireScope('agents.view')
  @Get('probe/compiled-prompt')
  compiledPrompt() {
    throw new AppError('prompt_access_forbidden');
  }

  @RequireScope('calls.edit')
  @Post('probe/metric-override')
  metricOverride() {
    throw new AppError('operator_only');
  }

  @RequireScope('campaigns.edit')
  @Post('probe/validate')
  @HttpCode(200)
  validate(@Body() body: ProbeBody, @Query() query: ProbeQuery) {
    return { body, query };
  }

  @AnyApiKey()
  @Post('v1/probe/validate-422')
  @HttpCode(200)
  validate422(@Body() body: ProbeBody422) {
    return { body };
  }

  @RequireScope('campaigns.view')
  @Get('probe/crash')
  crash() {
    throw new Error('boom: secret internals at /srv/app.ts:42');
  }
}

@Module({ controllers: [ProbeController], providers: [ProbeExecutions] })
export class ProbeModule {}
