import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import type { Response } from 'express';
import { RunSummaryView, RunView, RunViews } from '../application/run-views';
import { RunListQueryDto, RunResponse, RunSummaryResponse } from './runs.dto';

/** Runs of workflows (issue 13 item 5; decisions.md 37.13). */
@RequireFeature('workflows', 'workflow_not_found')
@Controller()
export class RunsController {
  constructor(private readonly runs: RunViews) {}

  @RequireScope('workflows.view')
  @Get('workflows/:id/runs')
  @Raises('workflow_not_found')
  @ApiOperation({ summary: "The workflow's runs, oldest first (offset/limit; the total in X-Total-Count; filter by status)" })
  @ApiOkResponse({ type: [RunSummaryResponse], headers: { 'X-Total-Count': { description: 'Runs matching the filter', schema: { type: 'integer' } } } })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Query() query: RunListQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RunSummaryView[]> {
    const { items, total } = await this.runs.page(p.workspaceId, id, { offset: query.offset ?? 0, limit: query.limit ?? 50, status: query.status });
    res.setHeader('X-Total-Count', String(total));
    return items;
  }

  @RequireScope('workflows.view')
  @Get('workflows/:id/runs/:runId')
  @Raises('workflow_not_found', 'workflow_run_not_found')
  @ApiOperation({ summary: 'One run with its steps' })
  @ApiOkResponse({ type: RunResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Param('runId') runId: string): Promise<RunView> {
    return this.runs.get(p.workspaceId, id, runId);
  }

  @RequireScope('workflows.view')
  @Get('campaigns/:id/leads/:leadId/journey')
  @Raises('campaign_not_found', 'campaign_has_no_journey', 'workflow_run_not_found')
  @ApiOperation({ summary: "A journey campaign lead's run with its steps (400 campaign_has_no_journey for other campaigns)" })
  @ApiOkResponse({ type: RunResponse })
  byLead(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Param('leadId') leadId: string): Promise<RunView> {
    return this.runs.byLead(p.workspaceId, id, leadId);
  }
}
