import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ApiLeadIntake } from '@outreach/campaigns';
import { AppConfig, AppError } from '@outreach/core';
import { decodeCursor, Page, toPage } from '../domain/page-cursor';
import { ApiLogEntry, ApiLogStore, ApiLogView } from './results.ports';

/** Rows per insert (11 parameters each, far below Postgres's 65,535). */
export const API_LOG_BATCH_ROWS = 1000;
/** Lines held while the database does not take them; past this, new lines are dropped (and counted in a warning). */
export const API_LOG_MAX_BUFFERED = 20_000;

/**
 * The /v1 requests that named a campaign, listed newest first. Recorded after each response into
 * a buffer in memory that one multi-row insert writes every API_LOG_FLUSH_MS (at once when a
 * batch is full, and on shutdown): a crash loses at most that interval of log lines, never a lead
 * (the lead push commits in its own transaction before its response; decisions.md 41.3).
 */
@Injectable()
export class ApiLogs implements BeforeApplicationShutdown {
  private readonly logger = new Logger('ApiLogs');
  private buffer: ApiLogEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** A write queued behind the one under way and not started yet: later flushes join it. */
  private queued: Promise<void> | null = null;
  private dropped = 0;

  constructor(
    private readonly logs: ApiLogStore,
    private readonly intake: ApiLeadIntake,
    private readonly config: AppConfig,
  ) {}

  /** Buffers one line; never fails and never waits for the database. */
  record(entry: ApiLogEntry): void {
    if (this.buffer.length >= API_LOG_MAX_BUFFERED) {
      this.dropped += 1;
      return;
    }
    this.buffer.push(entry);
    if (this.buffer.length >= API_LOG_BATCH_ROWS) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.config.apiLogFlushMs);
      this.timer.unref();
    }
  }

  /** Writes every buffered line (after any write under way); resolves when they are stored or given up. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.queued) {
      this.queued = this.writing.then(() => {
        this.queued = null;
        return this.writeBuffered();
      });
      this.writing = this.queued;
    }
    return this.queued;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  async page(workspaceId: string, campaignId: string, query: { cursor?: string; limit: number }): Promise<Page<ApiLogView>> {
    const beforeSeq = decodeCursor('api-logs', query.cursor);
    if (!(await this.intake.exists(workspaceId, campaignId))) {
      throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    }
    const rows = await this.logs.list(workspaceId, campaignId, beforeSeq, query.limit + 1);
    return toPage('api-logs', rows, query.limit, (r) => r.log);
  }

  private async writeBuffered(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, API_LOG_BATCH_ROWS);
      try {
        await this.logs.insertMany(batch);
      } catch (error) {
        this.logger.warn(`${batch.length} API log lines not written: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (this.dropped > 0) {
      this.logger.warn(`${this.dropped} API log lines dropped: more than ${API_LOG_MAX_BUFFERED} were waiting for the database`);
      this.dropped = 0;
    }
  }
}
