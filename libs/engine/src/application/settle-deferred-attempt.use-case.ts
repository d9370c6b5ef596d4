import { Injectable } from '@nestjs/common';
import { CampaignExecution } from '@outreach/campaigns';
import { AttemptSettlement, SettledAttempt } from './attempt-settlement';
import { DeferredSettlement } from './engine.ports';

export type DeferredSettlementReport = { state: 'stale' } | { state: 'settled'; settled: SettledAttempt };

/**
 * The settle job (attempts/settle): stores an ended call's outcome that its attempt could not
 * store (decisions.md 16.18). Idempotent like every settlement (the Call ends once, the contact
 * moves once, the wallet is debited once), so a settlement the reaper or a recovered attempt
 * already made turns this into a no-op. While the database is unreachable the job fails and the
 * queue worker re-runs it without spending an attempt, for as long as the outage lasts.
 */
@Injectable()
export class SettleDeferredAttempt {
  constructor(
    private readonly execution: CampaignExecution,
    private readonly settlement: AttemptSettlement,
  ) {}

  async execute(deferred: DeferredSettlement): Promise<DeferredSettlementReport> {
    const campaign = await this.execution.campaign(deferred.campaignId);
    if (!campaign) return { state: 'stale' };
    const { contactId, attemptSeq, callId, result } = deferred;
    return { state: 'settled', settled: await this.settlement.settle({ contactId, attemptSeq, callId, campaign, result }) };
  }
}
