import { Injectable, Logger } from '@nestjs/common';
import { CreditStatus, DebitInput, startedMinutes, Tariffs, WalletDebits } from '@outreach/billing';
import { analyseCallJob, CallLog, CallView } from '@outreach/calls';
import { AttemptOutcomeUpdate, CampaignExecution, ContactStatus, ContactTimeline, ExecutionCampaign, numbersLeftAfter, TimelineEntry } from '@outreach/campaigns';
import { leadFinalJob } from '@outreach/results';
import { Clock, Outbox, OutboxJob, UnitOfWork } from '@outreach/core';
import { CONNECTED_OUTCOMES, isAnswered, PhoneNumberDirectory, VoiceCallResult } from '@outreach/telephony';
import { circuitOpen, CIRCUIT_OPEN } from '../domain/circuit-breaker';
import { inboundStep } from '../domain/inbound-step';
import { nextStep } from '../domain/retry-policy';
import { callSignals } from '../domain/call-signals';
import { SKIP_EVENTS_PER_RUN } from './dispatch-campaign.use-case';
import { DispatchScheduler, JourneySteps } from './engine.ports';

const isConnected = (outcome: string) => (CONNECTED_OUTCOMES as readonly string[]).includes(outcome);

/** Call endings after which VOICE_THEN_WHATSAPP sends its WhatsApp leg: nobody answered, or a voicemail took it. */
const UNANSWERED = new Set(['no_answer', 'voicemail']);

/**
 * VOICE_THEN_WHATSAPP (decisions.md 33): the WhatsApp leg follows a voice leg that ended unanswered
 * or in voicemail and, with messageDeclinedLeads, one the callee declined (rejected the ringing
 * call: `busy`).
 */
function whatsappFollowsCall(campaign: ExecutionCampaign, outcome: string): boolean {
  if (campaign.channel !== 'VOICE_THEN_WHATSAPP') return false;
  return UNANSWERED.has(outcome) || (outcome === 'busy' && campaign.settings.messageDeclinedLeads);
}

export interface SettleInput {
  contactId: string;
  attemptSeq: number;
  callId: string;
  campaign: ExecutionCampaign;
  result: VoiceCallResult;
  /** The provider event that reported the ending, noted as applied in the settlement's transaction (decisions.md 16.33). */
  event?: { provider: string; eventId: string; type: string };
}

export interface SettledAttempt {
  call: CallView;
  /** The contact's new status; null when the contact had moved on (stale attempt: the call is still recorded and billed). */
  contactStatus: ContactStatus | null;
  /** Minor units debited for this call (0 when unanswered or already billed). */
  debitedMinor: number;
}

/**
 * The end of an attempt, in ONE transaction (decisions.md 16.6, 8.6): the Call's ending, the contact's
 * next status (final or a retry at the next delay), the wallet debit of an answered call (human
 * or machine, per started minute), and the outbox job for the analysis; then a dispatch wake-up.
 * Afterwards, a wallet that can no longer spend moves the workspace's RUNNING campaigns to
 * CREDIT_EXHAUSTED (in-flight attempts still finish). Used by attempts and by the reaper.
 */
@Injectable()
export class AttemptSettlement {
  constructor(
    private readonly execution: CampaignExecution,
    private readonly callLog: CallLog,
    private readonly debits: WalletDebits,
    private readonly tariffs: Tariffs,
    private readonly credit: CreditStatus,
    private readonly outbox: Outbox,
    private readonly scheduler: DispatchScheduler,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly timeline: ContactTimeline,
    private readonly numbers: PhoneNumberDirectory,
    private readonly journeys: JourneySteps,
  ) {}

  private readonly logger = new Logger('AttemptSettlement');

  async settle(input: SettleInput): Promise<SettledAttempt> {
    return (await this.settleMany([input]))[0];
  }

  /**
   * settle() of several attempts in ONE transaction (decisions.md 16.31): the contacts and calls
   * locked in id order, the calls' endings written together, the contacts' next statuses in one
   * statement, one timeline insert, one outbox insert, and one debit per workspace (its wallet row
   * locked from then to the commit, once per batch instead of once per call). Each contact at most
   * once per batch. Answers in the order of `inputs`. A failure fails the whole batch: nothing is
   * written, and the caller settles its attempts one by one (CallEndings).
   */
  async settleMany(inputs: readonly SettleInput[]): Promise<SettledAttempt[]> {
    if (new Set(inputs.map((input) => input.contactId)).size !== inputs.length) throw new Error('settleMany: a contact is named twice');
    const settled = await this.uow.run(async () => {
      const now = this.clock.now();
      const contacts = new Map((await this.execution.lockContacts(inputs.map((input) => input.contactId))).map((c) => [c.id, c]));
      const recorded = await this.callLog.recordMany(inputs.map((input) => ({ callId: input.callId, result: input.result })));
      const jobs: OutboxJob[] = [];
      const outcomes: Array<{ contactId: string; attemptSeq: number; update: AttemptOutcomeUpdate }> = [];
      const events: TimelineEntry[] = [];
      const answers: Array<{ call: CallView; contactStatus: ContactStatus | null; debitedMinor: number; finishedNow: boolean }> = [];
      for (const [i, input] of inputs.entries()) {
        const { campaign } = input;
        const { call, finishedNow } = recorded[i];
        const contact = contacts.get(input.contactId) ?? null;
        if (finishedNow && call.analysisStatus === 'PENDING') jobs.push(analyseCallJob(call.id));
        let contactStatus: ContactStatus | null = null;
        const current =
          contact !== null &&
          contact.status === 'IN_PROGRESS' &&
          contact.attemptSeq === input.attemptSeq &&
          contact.currentCallId === input.callId;
        if (current && call.outcome && campaign.channel === 'CUSTOM') {
          // A journey's call step (decisions.md 37.12): no retry policy; the contact is parked again and its run goes on.
          contactStatus = await this.settleJourneyCall(input.contactId, input.attemptSeq, contact.attempts, call, now, jobs);
        } else if (current && call.outcome) {
          const signals = callSignals(call.providerAnalysis);
          const step = campaign.source === 'INBOUND' ? inboundStep(call.outcome) : nextStep(campaign.settings, {
            attempts: contact.attempts - contact.phoneFirstAttempt,
            incompleteRetries: contact.incompleteRetries,
            outcome: call.outcome,
            durationMs: call.durationMs ?? 0,
            numbersLeft: numbersLeftAfter(contact),
            followups: contact.followups,
            churnRounds: contact.churnRounds,
            interested: signals.interested,
          });
          // VOICE_THEN_WHATSAPP (decisions.md 33): a voice leg that ends without reaching the person goes on to the WhatsApp leg, at once.
          const followUp = step.status === 'FAILED' && whatsappFollowsCall(campaign, call.outcome);
          const status = followUp ? 'RETRY_SCHEDULED' : step.status;
          const retryAt = step.status === 'RETRY_SCHEDULED' ? new Date(now.getTime() + step.delayMinutes * 60_000) : followUp ? now : null;
          outcomes.push({
            contactId: input.contactId,
            attemptSeq: input.attemptSeq,
            update: {
              status,
              nextAttemptAt: retryAt,
              lastOutcome: call.outcome,
              lastAttemptAt: now,
              incompleteRetry: step.status === 'RETRY_SCHEDULED' && step.incompleteRetry,
              nextNumber: step.status === 'RETRY_SCHEDULED' && step.nextNumber,
              connectedPhone: isConnected(call.outcome) ? call.toNumber : null,
              sequence: step.status === 'RETRY_SCHEDULED' ? (step.sequence ?? null) : null,
              talkMs: isConnected(call.outcome) ? (call.durationMs ?? 0) : null,
              ...(followUp
                ? { legState: { leg: 'WHATSAPP', messageSends: 0, messageTransient: 0, messageLegAt: null, messageOutcome: null, followupCallId: call.id, switchLeg: true } }
                : {}),
            },
          });
          contactStatus = status;
          // Referrals the person gave join the campaign, up to referralMaxDepth (decisions.md 35.6).
          const referred = await this.execution.addReferrals(campaign, contact, signals.referrals);
          if (referred > 0) this.logger.log(`contact ${input.contactId}: ${referred} referral(s) added to campaign ${campaign.id}`);
          events.push({ contactId: input.contactId, type: 'attempt_ended', detail: { attempt: contact.attempts, callId: call.id, outcome: call.outcome, status } });
          if (retryAt) {
            events.push({
              contactId: input.contactId,
              type: 'retry_scheduled',
              detail: {
                at: retryAt.toISOString(),
                why: followUp
                  ? 'next_leg'
                  : step.status === 'RETRY_SCHEDULED' && step.nextNumber
                    ? 'next_number'
                    : step.status === 'RETRY_SCHEDULED' && step.incompleteRetry
                      ? 'incomplete_call'
                      : ((step.status === 'RETRY_SCHEDULED' ? step.sequence : null) ?? call.outcome),
              },
            });
          }
          // An API lead (or an INBOUND caller, decisions.md 36.3) that reached its final state gets its immutable result (results module).
          if (status !== 'RETRY_SCHEDULED' && (campaign.source === 'API' || campaign.source === 'INBOUND')) jobs.push(leadFinalJob(input.contactId, call.id));
        }
        answers.push({ call, contactStatus, debitedMinor: 0, finishedNow });
      }
      await this.execution.recordOutcomes(outcomes);
      await this.callLog.noteEvents(inputs.flatMap((input) => (input.event ? [{ ...input.event, callId: input.callId }] : [])));
      await this.timeline.record(...events);
      await this.outbox.enqueue(...jobs);
      // The debits come last: each wallet row stays locked until commit, so the lock is held briefly.
      // One debit statement per workspace, in workspace order (two batches never wait on each other's wallets in a cycle).
      const answered = new Map<string, number[]>();
      for (const [i, { call, finishedNow }] of answers.entries()) {
        if (!finishedNow || !call.outcome || !isAnswered(call.outcome)) continue;
        const workspaceId = inputs[i].campaign.workspaceId;
        answered.set(workspaceId, [...(answered.get(workspaceId) ?? []), i]);
      }
      const spent = new Set<string>();
      for (const workspaceId of [...answered.keys()].sort()) {
        const indexes = answered.get(workspaceId)!;
        const costs = await this.tariffs.voiceCostsMinor(workspaceId, indexes.map((i) => answers[i].call.durationMs ?? 0));
        const debits = indexes.map((i, k): DebitInput => {
          const { call } = answers[i];
          answers[i].debitedMinor = costs[k];
          return {
            workspaceId,
            amountMinor: costs[k],
            kind: 'call',
            reference: call.id,
            campaignId: inputs[i].campaign.id,
            description: `Call to ${call.toNumber}: ${call.outcome}, ${startedMinutes(call.durationMs ?? 0)} min`,
          };
        });
        const [{ balanceMinor }] = await this.debits.debitMany(debits);
        if (balanceMinor <= 0) spent.add(workspaceId);
      }
      return { answers, spent };
    });
    const results = settled.answers.map(({ call, contactStatus, debitedMinor }) => ({ call, contactStatus, debitedMinor }));
    // A line is free: wake the dispatcher now. Only a hint (it runs after commit and may be lost
    // with the process): the dispatcher's own tick, scheduled while attempts are in flight, covers it.
    const freed = new Set(inputs.filter((_, i) => results[i].contactStatus !== null).map((input) => input.campaign.id));
    for (const campaignId of freed) {
      await this.scheduler.wakeNow(campaignId).catch((error: Error) => this.logger.warn(`dispatch wake-up failed: ${error.message}`));
    }
    // Out of money (and no trial): stop dialling; attempts in flight still finish.
    for (const workspaceId of settled.spent) {
      if (!(await this.credit.canSpend(workspaceId, this.clock.now()))) await this.execution.exhaustCredit(workspaceId);
    }
    // A carrier failure of the current attempt may open the campaign's circuit breaker (once per campaign and caller id).
    const judged = new Set<string>();
    for (const [i, { campaign }] of inputs.entries()) {
      const { call, contactStatus } = results[i];
      if (contactStatus === null || call.outcome !== 'carrier_failure') continue;
      const key = `${campaign.id}\u0000${call.fromNumber ?? ''}`;
      if (judged.has(key)) continue;
      judged.add(key);
      await this.checkCircuit(campaign, call.fromNumber);
    }
    return results;
  }

  /**
   * A journey contact's call ended: parked again (RETRY_SCHEDULED, not due, no leg: only its run's
   * next call step makes it due) and the outcome handed to its run (JourneySteps, the workflows
   * module), whose next-step job joins this transaction's outbox jobs. The lead's result is written
   * when the run ends, not here.
   */
  private async settleJourneyCall(contactId: string, attemptSeq: number, attempt: number, call: CallView, now: Date, jobs: OutboxJob[]): Promise<ContactStatus> {
    const outcome = call.outcome!;
    await this.execution.recordOutcome(contactId, attemptSeq, {
      status: 'RETRY_SCHEDULED',
      nextAttemptAt: null,
      lastOutcome: outcome,
      lastAttemptAt: now,
      incompleteRetry: false,
      nextNumber: false,
      connectedPhone: isConnected(outcome) ? call.toNumber : null,
      talkMs: isConnected(outcome) ? (call.durationMs ?? 0) : null,
      legState: { leg: null, messageSends: 0, messageTransient: 0, messageLegAt: null, messageOutcome: null, followupCallId: null, switchLeg: false },
    });
    await this.timeline.record({ contactId, type: 'attempt_ended', detail: { attempt, callId: call.id, outcome, status: 'RETRY_SCHEDULED' } });
    jobs.push(...(await this.journeys.callEnded({ contactId, callId: call.id, outcome })));
    return 'RETRY_SCHEDULED';
  }

  /**
   * The circuit breaker (decisions.md 16.26): too many carrier failures among the latest calls since
   * the campaign went RUNNING pause it (`circuit_open`; the members named in notificationUserIds
   * are told). The window is per carrier: the latest calls placed from the campaign's numbers on
   * the failing call's carrier, so one failing carrier trips it even when another carrier of the
   * campaign does well. Attempts in flight finish; resuming starts a new window. Best effort: a
   * failure here is logged, the settlement stands, and the next failure judges again.
   */
  private async checkCircuit(campaign: ExecutionCampaign, failedFrom: string | null): Promise<void> {
    try {
      const since = campaign.runningSince ?? campaign.startedAt ?? new Date(0);
      const numbers = await this.numbers.findByIds(campaign.workspaceId, await this.execution.phoneNumberIds(campaign.id));
      const carrier = numbers.find((n) => n.e164 === failedFrom)?.carrier;
      // A caller id no longer on the campaign (or none): the campaign's whole window judges.
      const sameCarrier = carrier === undefined ? null : numbers.filter((n) => n.carrier === carrier).map((n) => n.e164);
      const outcomes = await this.callLog.recentOutcomes(campaign.id, since, campaign.settings.circuitBreakerWindow, sameCarrier);
      if (circuitOpen(outcomes, campaign.settings) && (await this.execution.pauseForService(campaign.id, CIRCUIT_OPEN))) {
        await this.timeline.skipped(await this.execution.dueIds(campaign.id, this.clock.now(), SKIP_EVENTS_PER_RUN), 'circuit_open', null);
        this.logger.warn(`campaign ${campaign.id}: circuit breaker opened (${outcomes.length} latest calls judged), campaign PAUSED`);
      }
    } catch (error) {
      this.logger.warn(`campaign ${campaign.id}: circuit breaker check failed: ${(error as Error).message}`);
    }
  }
}
