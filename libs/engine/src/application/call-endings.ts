import { Injectable, Logger } from '@nestjs/common';
import { CallLog } from '@outreach/calls';
import { CampaignExecution, ExecutionCampaign } from '@outreach/campaigns';
import { isAppError, UnitOfWork } from '@outreach/core';
import { VoiceCallResult } from '@outreach/telephony';
import { AttemptSettlement, SettledAttempt } from './attempt-settlement';
import { settleJobId } from './engine-jobs';
import { SettlementQueue } from './engine.ports';

export type CallEndingReport =
  | { state: 'settled'; settled: SettledAttempt }
  /** The outcome could not be stored: it waits in its own settle job. */
  | { state: 'deferred' }
  /** Not a campaign call, or its campaign is gone. */
  | { state: 'not_an_attempt' };

/** What the caller already knows of the attempt (the attempt job does; an event knows only the call id). */
export interface KnownAttempt {
  contactId: string;
  attemptSeq: number;
  campaign: ExecutionCampaign;
}

/**
 * A campaign call ended — by the provider's event, its poll, a recovered attempt or a call never
 * placed: settle the attempt (AttemptSettlement, idempotent). When that fails for any reason but
 * a business rule (the database unreachable, a deadlock), the outcome goes to a settle job of its
 * own instead of being lost (decisions.md 16.18); only when that job cannot be stored either does
 * this reject, and the sender (provider redelivery, poll, attempt job) tries again.
 */
@Injectable()
export class CallEndings {
  private readonly logger = new Logger('CallEndings');

  constructor(
    private readonly execution: CampaignExecution,
    private readonly callLog: CallLog,
    private readonly settlement: AttemptSettlement,
    private readonly settlements: SettlementQueue,
    private readonly uow: UnitOfWork,
  ) {}

  async end(callId: string, result: VoiceCallResult, known?: KnownAttempt): Promise<CallEndingReport> {
    const attempt = known ?? (await this.attemptOf(callId));
    if (!attempt) return { state: 'not_an_attempt' };
    const input = { contactId: attempt.contactId, attemptSeq: attempt.attemptSeq, callId, campaign: attempt.campaign, result };
    try {
      return { state: 'settled', settled: await this.settlement.settle(input) };
    } catch (error) {
      if (isAppError(error)) throw error;
      try {
        await this.settlements.defer({ contactId: input.contactId, attemptSeq: input.attemptSeq, callId, campaignId: attempt.campaign.id, result });
      } catch (deferError) {
        this.logger.warn(`call ${callId}: settling failed (${(error as Error).message}) and so did deferring it (${(deferError as Error).message})`);
        throw error;
      }
      this.logger.warn(`call ${callId}: settling failed (${(error as Error).message}); its outcome waits in job ${settleJobId(callId)}`);
      return { state: 'deferred' };
    }
  }

  /**
   * The attempt a campaign call belongs to. The contact's current attempt when the call is its
   * current call; otherwise the call is stale (the contact moved on) and is settled as such:
   * recorded and billed, the contact untouched.
   */
  private async attemptOf(callId: string): Promise<KnownAttempt | null> {
    const call = await this.callLog.find(callId);
    // Inbound calls an INBOUND campaign took settle like its attempts (decisions.md 36.3); declined ones have no campaign.
    if (!call || (call.kind !== 'campaign' && call.kind !== 'inbound') || !call.campaignId || !call.contactId) return null;
    const campaign = await this.execution.campaign(call.campaignId);
    if (!campaign) return null;
    const contact = await this.uow.run(() => this.execution.lockContact(call.contactId!));
    const attemptSeq = contact && contact.currentCallId === callId ? contact.attemptSeq : -1;
    return { contactId: call.contactId, attemptSeq, campaign };
  }
}
