import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireScope } from '@outreach/platform';
import { ApiLogs } from '../application/api-logs.service';
import { ApiLogView } from '../application/results.ports';
import { Page } from '../domain/page-cursor';
import { ApiLogsPage } from './result-webhook.dto';
import { CursorQueryDto } from './result.dto';

@Controller('campaigns/:id/api-logs')
export class ApiLogsController {
  constructor(private readonly logs: ApiLogs) {}

  @RequireScope('campaigns.view')
  @Get()
  @Raises('campaign_not_found', 'invalid_cursor')
  @ApiOperation({ summary: 'The /v1 requests that named this campaign, newest first (cursor)' })
  @ApiOkResponse({ type: ApiLogsPage })
  list(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Query() q: CursorQueryDto): Promise<Page<ApiLogView>> {
    return this.logs.page(p.workspaceId, id, { cursor: q.cursor, limit: q.limit ?? 50 });
  }
}
