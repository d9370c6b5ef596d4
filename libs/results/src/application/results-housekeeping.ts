import { Injectable } from '@nestjs/common';
import { Clock } from '@outreach/core';
import { ApiLogStore, ResultStore } from './results.ports';

/** API logs are kept this long. */
export const API_LOG_RETENTION_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;
const BATCH = 1000;

/** Periodic clean-up: expired results become tombstones (id + expiry kept), old API logs go. */
@Injectable()
export class ResultsHousekeeping {
  constructor(
    private readonly results: ResultStore,
    private readonly logs: ApiLogStore,
    private readonly clock: Clock,
  ) {}

  async run(): Promise<{ resultsExpired: number; logsDeleted: number }> {
    const now = this.clock.now();
    let resultsExpired = 0;
    for (let n = BATCH; n === BATCH; resultsExpired += n) n = await this.results.purgeExpired(now, BATCH);
    let logsDeleted = 0;
    const cutoff = new Date(now.getTime() - API_LOG_RETENTION_DAYS * DAY_MS);
    for (let n = BATCH; n === BATCH; logsDeleted += n) n = await this.logs.purgeOlderThan(cutoff, BATCH);
    return { resultsExpired, logsDeleted };
  }
}
