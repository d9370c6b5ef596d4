import { Injectable } from '@nestjs/common';
import { ApiLeadIntake } from '@outreach/campaigns';
import { AppError } from '@outreach/core';
import { decodeCursor, Page, toPage } from '../domain/page-cursor';
import { ApiLogEntry, ApiLogStore, ApiLogView } from './results.ports';

/** The /v1 requests that named a campaign: written after each response, listed newest first. */
@Injectable()
export class ApiLogs {
  constructor(
    private readonly logs: ApiLogStore,
    private readonly intake: ApiLeadIntake,
  ) {}

  record(entry: ApiLogEntry): Promise<void> {
    return this.logs.insert(entry);
  }

  async page(workspaceId: string, campaignId: string, query: { cursor?: string; limit: number }): Promise<Page<ApiLogView>> {
    const beforeSeq = decodeCursor('api-logs', query.cursor);
    if (!(await this.intake.exists(workspaceId, campaignId))) {
      throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    }
    const rows = await this.logs.list(workspaceId, campaignId, beforeSeq, query.limit + 1);
    return toPage('api-logs', rows, query.limit, (r) => r.log);
  }
}
