import { Injectable, Logger } from '@nestjs/common';
import { CampaignExecution, currentLeg, isMessageLeg } from '@outreach/campaigns';
import { Clock, Outbox, UnitOfWork } from '@outreach/core';
import { VoiceCallResult, VoiceProvider } from '@outreach/telephony';
import { AttemptSettlement } from './attempt-settlement';
import { attemptJob, attemptJobId, dispatchJob } from './engine-jobs';
import { DispatchScheduler, FailedAttemptJobs } from './engine.ports';
import { MESSAGE_REPORT_PATIENCE_MS, MessageAttempt } from './message-attempt';

const BATCH = 200;
/** Batches per run (the repeatable tick comes back for the rest). */
const MAX_ROUNDS = 10;

export interface ReapReport {
  /** Attempts whose call the provider reports ended: settled with the provider's outcome. */
  recovered: number;
  /** Attempts whose call the provider has no record of: call FAILED ('no_provider_record'), contact on the retry path. */
  reaped: number;
  /** Claimed attempts that never dialled: given back (due again, the attempt not counted). */
  released: number;
  /** Attempts left for the next run: the call is still in progress, or the provider did not answer. */
  waiting: number;
}

/** The disposition of a call the provider has no record of: it never reached the network. */
export const NO_PROVIDER_RECORD = 'no_provider_record';

/**
 * The reaper (decisions.md 16.9, 16.18): attempts IN_PROGRESS past their deadline (claim + the
 * agent's maxCallDurationSecs + REAPER_GRACE_SECONDS) were lost by their worker. The reaper asks
 * before it fails: the provider's record of the call is the truth, not the timer.
 * - ended at the provider: settled with the provider's outcome, transcript and duration;
 * - still in progress, or the provider unreachable: left for the next run;
 * - unknown to the provider: the call never happened; FAILED with outcome carrier_failure and
 *   disposition 'no_provider_record', and the contact follows the retry path;
 * - claimed but never dialled: simply given back;
 * - a message leg (decisions.md 33): its message (by the leg's key) is sent or found, and settled.
 * Also sweeps RUNNING campaigns with a dispatch wake-up, in case a scheduled one was lost.
 */
@Injectable()
export class ReapStuckAttempts {
  private readonly logger = new Logger('ReapStuckAttempts');

  constructor(
    private readonly execution: CampaignExecution,
    private readonly settlement: AttemptSettlement,
    private readonly voice: VoiceProvider,
    private readonly scheduler: DispatchScheduler,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly messages: MessageAttempt,
    private readonly failedJobs: FailedAttemptJobs,
  ) {}

  async execute(): Promise<ReapReport> {
    const report: ReapReport = { recovered: 0, reaped: 0, released: 0, waiting: 0 };
    const now = this.clock.now();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const batch = await this.execution.findStuck(now, BATCH);
      await this.reapBatch(batch, now, report);
      // Attempts left waiting are found again: only a full batch of new ones asks for another round.
      if (batch.length < BATCH || report.waiting >= BATCH) break;
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
          // A message leg is never given back (a new claim would send under a new key): its message says what became of it.
          const campaign = await this.execution.campaign(contact.campaignId);
          if (campaign && isMessageLeg(currentLeg(campaign.channel, contact.leg))) return { message: contact };
          await this.execution.release(contact.id, contact.attemptSeq);
          await this.outbox.enqueue(dispatchJob(contact.campaignId));
          report.released++;
          return null;
        }
        return contact;
      });
      if (found && 'message' in found) {
        const outcome = await this.messages.execute(found.message.id, found.message.attemptSeq, { final: true });
        if (outcome.state === 'settled') report.recovered++;
        else report.waiting++;
        continue;
      }
      if (!found || !found.currentCallId) continue;
      const callId = found.currentCallId;
      const campaign = await this.execution.campaign(found.campaignId);
      if (!campaign) continue;
      let result: VoiceCallResult;
      try {
        const status = await this.voice.lookupCall(callId);
        if (status.state === 'in_progress') {
          report.waiting++;
          continue;
        }
        result = status.state === 'ended' ? status.result : this.noRecord(now);
      } catch (error) {
        this.logger.warn(`call ${callId}: the provider did not answer (${(error as Error).message}); asking again next run`);
        report.waiting++;
        continue;
      }
      await this.settlement.settle({ contactId: found.id, attemptSeq: found.attemptSeq, callId, campaign, result });
      if (result.providerDisposition === NO_PROVIDER_RECORD) report.reaped++;
      else report.recovered++;
    }
  }

  private noRecord(now: Date): VoiceCallResult {
    return {
      outcome: 'carrier_failure',
      providerDisposition: NO_PROVIDER_RECORD,
      providerCallId: '',
      answeredAt: null,
      endedAt: now,
      durationMs: 0,
      transcript: null,
      recordingUrl: null,
    };
  }

  /**
   * Voice claims whose call was never placed, made more than `idleMs` ago (ATTEMPT_IDLE_MS,
   * decisions.md 16.30): their attempt job was lost (a Redis flush took it after the claim) or is
   * late. Each one's attempt job is added again through the outbox under its own id, so a job still
   * queued or running stays the only one, and the attempt re-checks its claim under the contact's
   * lock. A message leg is left to the reaper at its deadline (its message may be out awaiting its
   * report). Returns how many jobs were added.
   */
  async resumeUndialled(idleMs: number, limit = BATCH): Promise<number> {
    const claims = await this.execution.findUndialled('VOICE', new Date(this.clock.now().getTime() - idleMs), limit);
    if (claims.length === 0) return 0;
    await this.uow.run(() => this.outbox.enqueue(...claims.map((c) => attemptJob(c.contactId, c.attemptSeq))));
    // A job that used up its tries is still there under that id, so the add above is ignored: put it back (16.34).
    const retried = await this.failedJobs.retry(claims.map((c) => attemptJobId(c.contactId, c.attemptSeq))).catch((error: Error) => {
      this.logger.warn(`failed attempt jobs not retried (the next maintenance tries again): ${error.message}`);
      return 0;
    });
    if (retried > 0) this.logger.log(`${retried} failed attempt job(s) of undialled claims retried`);
    return claims.length;
  }

  /**
   * Message legs still IN_PROGRESS `patienceMs` (MESSAGE_REPORT_PATIENCE_MS) after their claim
   * (decisions.md 47.17): the provider's report is overdue. Each is settled from its message as it
   * stands, a message still only SENT counting as sent (MessageAttempt.execute, final), as the
   * check job once added for every message did. A leg whose message was never written (its batch
   * job has not run in all that time) is sent now, under its key. Safe in several workers at once:
   * the contact's lock and the message's key keep each leg settled, and each message sent, once.
   * Answers how many legs it settled.
   */
  async settleOverdueLegs(patienceMs = MESSAGE_REPORT_PATIENCE_MS): Promise<number> {
    const claimedBefore = new Date(this.clock.now().getTime() - patienceMs);
    let settled = 0;
    for (const leg of ['WHATSAPP', 'EMAIL'] as const) {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const batch = await this.execution.findUndialled(leg, claimedBefore, BATCH);
        let moved = 0;
        for (const { contactId, attemptSeq } of batch) {
          try {
            const report = await this.messages.execute(contactId, attemptSeq, { final: true });
            if (report.state === 'settled') settled++;
            if (report.state !== 'in_flight') moved++;
          } catch (error) {
            this.logger.warn(`message leg of contact ${contactId}: not settled (${(error as Error).message}); trying again next run`);
          }
        }
        // Legs left (a send in flight, a failure) are found again: only a full batch that moved asks for another round.
        if (batch.length < BATCH || moved === 0) break;
      }
    }
    return settled;
  }

  /** A wake-up for every RUNNING campaign (the safety net behind scheduled ticks). */
  async sweep(): Promise<number> {
    const ids = await this.execution.runningCampaignIds();
    for (const id of ids) await this.scheduler.wakeIn(id, 0);
    return ids.length;
  }
}
