import { Injectable } from '@nestjs/common';
import { Clock } from '@outreach/core';
import { ExportRange, resolveExportPeriod } from '../domain/export-period';
import { LEAD_SEGMENTS, LeadFilter, LeadSegment, needsAnalysis, segmentFilter } from '../domain/lead-filter';
import { ExportCampaigns } from './exports.ports';
import { LeadCounter } from './lead-counter';

export interface PeriodInput {
  period?: string | null;
  from?: Date | null;
  to?: Date | null;
}

export interface RangeView {
  period: string;
  from: string | null;
  to: string | null;
}

const rangeView = (r: ExportRange): RangeView => ({ period: r.period, from: r.from?.toISOString() ?? null, to: r.to?.toISOString() ?? null });

/** GET …/exports/counts, GET …/lead-segments, POST …/segmented-leads/count. */
@Injectable()
export class ExportCounts {
  constructor(
    private readonly campaigns: ExportCampaigns,
    private readonly counter: LeadCounter,
    private readonly clock: Clock,
  ) {}

  /** The full report's row count in a period. */
  async fullReport(workspaceId: string, campaignId: string, input: PeriodInput): Promise<RangeView & { count: number }> {
    const range = resolveExportPeriod(input, this.clock.now());
    await this.campaigns.describe(workspaceId, campaignId);
    return { ...rangeView(range), count: await this.counter.count(workspaceId, campaignId, {}, range) };
  }

  /** Every preset segment with its count; the analysis segments share one pass. */
  async segments(workspaceId: string, campaignId: string, input: PeriodInput): Promise<RangeView & { segments: Array<{ key: LeadSegment; count: number }> }> {
    const range = resolveExportPeriod(input, this.clock.now());
    await this.campaigns.describe(workspaceId, campaignId);
    const counts = new Map<LeadSegment, number>();
    const analysed = LEAD_SEGMENTS.filter((s) => needsAnalysis(segmentFilter(s)));
    for (const segment of LEAD_SEGMENTS) {
      if (!analysed.includes(segment)) counts.set(segment, await this.counter.count(workspaceId, campaignId, segmentFilter(segment), range));
    }
    const shared = await this.counter.countMany(workspaceId, campaignId, analysed.map(segmentFilter), { activityFrom: range.from, activityTo: range.to });
    analysed.forEach((segment, i) => counts.set(segment, shared[i]));
    return { ...rangeView(range), segments: LEAD_SEGMENTS.map((key) => ({ key, count: counts.get(key)! })) };
  }

  /** The count of a custom filter in a period. */
  async custom(workspaceId: string, campaignId: string, filter: LeadFilter, input: PeriodInput): Promise<RangeView & { count: number }> {
    const range = resolveExportPeriod(input, this.clock.now());
    await this.campaigns.describe(workspaceId, campaignId);
    return { ...rangeView(range), count: await this.counter.count(workspaceId, campaignId, filter, range) };
  }
}
