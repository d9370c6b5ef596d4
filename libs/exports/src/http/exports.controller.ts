import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, StreamableFile } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import type { Response } from 'express';
import { ExportCounts } from '../application/export-counts';
import { ExportJobView } from '../application/export-job-view';
import { ExportQueries } from '../application/export-queries';
import { RequestExport } from '../application/request-export.use-case';
import { EXPORT_MEDIA_TYPES } from '../domain/export-format';
import { LeadFilter } from '../domain/lead-filter';
import {
  CreateExportDto,
  ExportCountResponse,
  ExportJobResponse,
  ExportJobsPage,
  ExportListQueryDto,
  ExportPeriodQueryDto,
  LeadFilterDto,
  LeadSegmentsResponse,
  SegmentedLeadsCountDto,
} from './exports.dto';

const date = (iso?: string | null): Date | null => (iso ? new Date(iso) : null);

/** DTO → domain filter: absent and null members are left out. */
function toFilter(dto: LeadFilterDto | null | undefined): LeadFilter | null {
  if (!dto) return null;
  const filter: LeadFilter = {};
  if (dto.statuses) filter.statuses = dto.statuses;
  if (dto.outcomes) filter.outcomes = dto.outcomes;
  if (dto.extraction) filter.extraction = dto.extraction.map((m) => ({ key: m.key, values: m.values }));
  if (dto.evaluation) filter.evaluation = dto.evaluation.map((m) => ({ key: m.key, values: m.values }));
  return filter;
}

/** Counts, lead segments and CSV/XLSX export jobs (issue 16; decisions.md 26). */
@RequireFeature('exports')
@Controller()
export class ExportsController {
  constructor(
    private readonly counts: ExportCounts,
    private readonly request: RequestExport,
    private readonly queries: ExportQueries,
  ) {}

  @RequireScope('exports.view')
  @Get('campaigns/:id/exports/counts')
  @Raises('campaign_not_found', 'invalid_export_period', 'invalid_export_range')
  @ApiOperation({ summary: "The full report's row count in a period (contacts whose last attempt, or creation, falls in it)" })
  @ApiOkResponse({ type: ExportCountResponse })
  count(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Query() q: ExportPeriodQueryDto): Promise<ExportCountResponse> {
    return this.counts.fullReport(p.workspaceId, id, { period: q.period, from: date(q.from), to: date(q.to) });
  }

  @RequireScope('exports.view')
  @Get('campaigns/:id/lead-segments')
  @Raises('campaign_not_found', 'invalid_export_period', 'invalid_export_range')
  @ApiOperation({ summary: 'Preset lead segments with their counts (all, pending, completed, failed, not_reached, interested, not_interested, opted_out, do_not_call)' })
  @ApiOkResponse({ type: LeadSegmentsResponse })
  segments(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Query() q: ExportPeriodQueryDto): Promise<LeadSegmentsResponse> {
    return this.counts.segments(p.workspaceId, id, { period: q.period, from: date(q.from), to: date(q.to) });
  }

  @RequireScope('exports.view')
  @Post('campaigns/:id/segmented-leads/count')
  @HttpCode(200)
  @Raises('campaign_not_found', 'invalid_export_period', 'invalid_export_range')
  @ApiOperation({ summary: 'The count of a custom lead filter (statuses, outcomes, extraction values, evaluation metrics, period)' })
  @ApiOkResponse({ type: ExportCountResponse })
  customCount(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: SegmentedLeadsCountDto): Promise<ExportCountResponse> {
    return this.counts.custom(p.workspaceId, id, toFilter(body) ?? {}, { period: body.period, from: date(body.from), to: date(body.to) });
  }

  @RequireScope('exports.edit')
  @Post('campaigns/:id/exports')
  @HttpCode(202)
  @Raises('campaign_not_found', 'invalid_export_period', 'invalid_export_range', 'excel_row_limit_exceeded')
  @ApiOperation({ summary: 'Start a CSV or XLSX export (a worker job: queued → running → ready | failed); poll GET /exports/{id}' })
  @ApiAcceptedResponse({ type: ExportJobResponse })
  create(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: CreateExportDto): Promise<ExportJobView> {
    return this.request.execute(p.workspaceId, id, {
      format: body.format,
      period: body.period,
      from: date(body.from),
      to: date(body.to),
      segment: body.segment ?? null,
      filter: toFilter(body.filter),
      columns: body.columns ?? null,
    });
  }

  @RequireScope('exports.view')
  @Get('campaigns/:id/exports')
  @Raises('campaign_not_found')
  @ApiOperation({ summary: "The campaign's exports, newest first" })
  @ApiOkResponse({ type: ExportJobsPage })
  list(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Query() q: ExportListQueryDto): Promise<{ items: ExportJobView[]; total: number }> {
    return this.queries.list(p.workspaceId, id, { offset: q.offset ?? 0, limit: q.limit ?? 50 });
  }

  @RequireScope('exports.view')
  @Get('exports/:id')
  @Raises('not_found')
  @ApiOperation({ summary: 'One export job: status, progress, rowCount, expiresAt' })
  @ApiOkResponse({ type: ExportJobResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ExportJobView> {
    return this.queries.get(p.workspaceId, id);
  }

  @RequireScope('exports.view')
  @Get('exports/:id/download')
  @Raises('not_found', 'invalid_request', 'expired')
  @ApiOperation({ summary: 'The export file, streamed (400 invalid_request until ready; 410 expired past expiresAt)' })
  @ApiOkResponse({
    description: 'The file, as an attachment',
    content: {
      [EXPORT_MEDIA_TYPES.CSV]: { schema: { type: 'string', format: 'binary' } },
      [EXPORT_MEDIA_TYPES.XLSX]: { schema: { type: 'string', format: 'binary' } },
    },
  })
  async download(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Res({ passthrough: true }) res: Response): Promise<StreamableFile> {
    const file = await this.queries.download(p.workspaceId, id);
    res.setHeader('Content-Type', file.mediaType);
    res.setHeader('Content-Disposition', `attachment; filename="${file.fileName}"`);
    return new StreamableFile(file.stream);
  }
}
