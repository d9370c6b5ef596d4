import { Injectable } from '@nestjs/common';
import { Clock, Outbox, UnitOfWork } from '@outreach/core';
import { analyseCallJob, CallAnalysisStore } from './call-analysis.ports';

/** Calls created longer ago than this are not swept: their leads and journeys settled long since. */
const SWEEP_HORIZON_MS = 24 * 3600 * 1000;

/**
 * The analysis sweep (decisions.md 37.17): re-adds the analysis job of every call that is over
 * with its analysis still PENDING, created more than `idleMs` ago (within the last day) — its job
 * was lost to a Redis flush. The job id `analyse-<callId>` makes the add change nothing while the
 * first job is still queued, running or kept as completed; the analysis itself never overwrites a
 * first result. Returns how many jobs it added.
 */
@Injectable()
export class ResumeAnalyses {
  constructor(
    private readonly store: CallAnalysisStore,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(idleMs: number, limit = 500): Promise<number> {
    const now = this.clock.now().getTime();
    const ids = await this.store.pendingAnalyses(new Date(now - idleMs), new Date(now - SWEEP_HORIZON_MS), limit);
    if (ids.length > 0) await this.uow.run(() => this.outbox.enqueue(...ids.map(analyseCallJob)));
    return ids.length;
  }
}
