import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import { ResultQueries } from '../application/result-queries';
import { LeadResultEnvelope } from '../domain/lead-result';
import { Page } from '../domain/page-cursor';
import { LeadResultResponse, LeadResultsPage, ResultsQueryDto } from './result.dto';

@RequireFeature('api_results', 'api_results_not_enabled')
@Controller('v1/results')
export class ResultsController {
  constructor(private readonly results: ResultQueries) {}

  @RequireScope('campaigns.view')
  @Get()
  @Raises('invalid_cursor')
  @ApiOperation({ summary: 'Lead results, oldest first (cursor); expired results are left out' })
  @ApiOkResponse({ type: LeadResultsPage })
  list(@CurrentPrincipal() p: Principal, @Query() q: ResultsQueryDto): Promise<Page<LeadResultEnvelope>> {
    return this.results.list(p.workspaceId, {
      campaignId: q.campaignId,
      since: q.since ? new Date(q.since) : undefined,
      cursor: q.cursor,
      limit: q.limit ?? 50,
    });
  }

  @RequireScope('campaigns.view')
  @Get(':resultId')
  @Raises('result_not_found', 'result_expired')
  @ApiOperation({ summary: 'One immutable lead result (410 result_expired past retention)' })
  @ApiOkResponse({ type: LeadResultResponse })
  get(@CurrentPrincipal() p: Principal, @Param('resultId') id: string): Promise<LeadResultEnvelope> {
    return this.results.get(p.workspaceId, id);
  }
}
