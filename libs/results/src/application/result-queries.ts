import { Injectable } from '@nestjs/common';
import { AppError, Clock, isUuid } from '@outreach/core';
import { LeadResultEnvelope } from '../domain/lead-result';
import { decodeCursor, Page, toPage } from '../domain/page-cursor';
import { ResultStore } from './results.ports';

/** GET /v1/results and GET /v1/results/{id}. */
@Injectable()
export class ResultQueries {
  constructor(
    private readonly results: ResultStore,
    private readonly clock: Clock,
  ) {}

  /** 404 result_not_found for unknown, malformed or foreign ids; 410 result_expired past retention. */
  async get(workspaceId: string, id: string): Promise<LeadResultEnvelope> {
    const found = isUuid(id) ? await this.results.find(workspaceId, id) : null;
    if (!found) throw new AppError('result_not_found', { message: `no result ${id}` });
    if (!found.envelope || found.expiresAt.getTime() <= this.clock.now().getTime()) {
      throw new AppError('result_expired', {
        message: `result ${id} expired at ${found.expiresAt.toISOString()}`,
        extra: { expiredAt: found.expiresAt.toISOString() },
      });
    }
    return found.envelope;
  }

  /** Oldest first; the cursor is a position, so pages never repeat or skip while results arrive. */
  async list(
    workspaceId: string,
    query: { campaignId?: string; since?: Date; cursor?: string; limit: number },
  ): Promise<Page<LeadResultEnvelope>> {
    const afterSeq = decodeCursor('results', query.cursor);
    const rows = await this.results.list(workspaceId, {
      campaignId: query.campaignId,
      since: query.since,
      afterSeq,
      limit: query.limit + 1,
      now: this.clock.now(),
    });
    return toPage('results', rows, query.limit, (r) => r.envelope);
  }
}
