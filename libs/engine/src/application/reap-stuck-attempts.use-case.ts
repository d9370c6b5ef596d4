import { Injectable } from '@nestjs/common';
import { CampaignExecution } from '@outreach/campaigns';
import { Clock, Outbox, UnitOfWork } from '@outreach/core';
import { VoiceCallResult } from '@outreach/telephony';
import { AttemptSettlement } from './attempt-settlement';
import { dispatchJob } from './engine-jobs';
import { DispatchScheduler } from './engine.ports';

const BATCH = 200;
/** Batches per run (the repeatable tick comes back for the rest). */
const MAX_ROUNDS = 10;

export interface ReapReport {
  /** Attempts whose call had started: call FAILED (carrier_failure, 'reaped'), contact on the retry path. */
  reaped: number;
  /** Claimed attempts that never dialled: given back (due again, the attempt not counted). */
  released: number;
}

/**
 * The reaper (decisions.md 16.9): attempts IN_PROGRESS past their deadline (claim + the agent's
 * maxCallDurationSecs + REAPER_GRACE_SECONDS) belong to a worker that died. Their call is marked
 * FAILED with outcome carrier_failure and disposition 'reaped', and the contact follows the retry
 * path; an attempt that never dialled is simply given back. By then the lost call has surely ended,
 * so nobody is dialled twice at once. Also sweeps RUNNING campaigns with a dispatch wake-up, in
 * case a scheduled one was lost.
 */
@Injectable()
export class ReapStuckAttempts {
  constructor(
    private readonly execution: CampaignExecution,
    private readonly settlement: AttemptSettlement,
    private readonly scheduler: DispatchScheduler,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<ReapReport> {
    const report: ReapReport = { reaped: 0, released: 0 };
    const now = this.clock.now();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const batch = await this.execution.findStuck(now, BATCH);
      await this.reapBatch(batch, now, report);
      if (batch.length < BATCH) break;
    }
    return report;
  }

  private async reapBatch(batch: Array<{ contactId: string; attemptSeq: number }>, now: Date, report: ReapReport): Promise<void> {
    for (const stuck of batch) {
      const found = await this.uow.run(async () => {
        const contact = await this.execution.lockContact(stuck.contactId);
        if (
          !contact ||
          contact.status !== 'IN_PROGRESS' ||
          contact.attemptSeq !== stuck.attemptSeq ||
          !contact.attemptDeadlineAt ||
          contact.attemptDeadlineAt.getTime() > now.getTime()
        ) {
          return null;
        }
        if (!contact.currentCallId) {
          await this.execution.release(contact.id, contact.attemptSeq);
          await this.outbox.enqueue(dispatchJob(contact.campaignId));
          report.released++;
          return null;
        }
        return contact;
      });
      if (!found || !found.currentCallId) continue;
      const campaign = await this.execution.campaign(found.campaignId);
      if (!campaign) continue;
      const reaped: VoiceCallResult = {
        outcome: 'carrier_failure',
        providerDisposition: 'reaped',
        providerCallId: '',
        answeredAt: null,
        endedAt: now,
        durationMs: 0,
        transcript: null,
        recordingUrl: null,
      };
      await this.settlement.settle({ contactId: found.id, attemptSeq: found.attemptSeq, callId: found.currentCallId, campaign, result: reaped });
      report.reaped++;
    }
  }

  /** A wake-up for every RUNNING campaign (the safety net behind scheduled ticks). */
  async sweep(): Promise<number> {
    const ids = await this.execution.runningCampaignIds();
    for (const id of ids) await this.scheduler.wakeIn(id, 0);
    return ids.length;
  }
}
