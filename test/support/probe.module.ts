import { Body, Controller, Get, HttpCode, Module, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import {
  AnyApiKey,
  AppError,
  CurrentPrincipal,
  HumanOnly,
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

/**
 * Test-only routes that exercise the platform before real modules use every rule: one per access
 * rule, the validation pipe, and the codes that later modules raise (prompt, operator).
 */
@Controller()
class ProbeController {
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

@Module({ controllers: [ProbeController] })
export class ProbeModule {}
