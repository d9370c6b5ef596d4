import { Injectable, Logger } from '@nestjs/common';
import { CallLog } from '@outreach/calls';
import { CampaignExecution, ExecutionCampaign } from '@outreach/campaigns';
import { AppConfig, GroupedRuns, isAppError, UnitOfWork } from '@outreach/core';
import { VoiceCallEvent, VoiceCallResult } from '@outreach/telephony';
import { AttemptSettlement, SettledAttempt } from './attempt-settlement';
import { settleJobId } from './engine-jobs';
import { SettlementQueue } from './engine.ports';

export type CallEndingReport =
  | { state: 'settled'; settled: SettledAttempt }
  /** A provider event applied before (decisions.md 16.24): nothing done. */
  | { state: 'duplicate' }
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

interface Ending {
  callId: string;
  result: VoiceCallResult;
  known?: KnownAttempt;
  /** The provider event that reported it: skipped when applied before, noted as applied once settled. */
  event?: { provider: string; eventId: string; type: string };
}

/**
 * A campaign call ended — by the provider's event, the live-call sweep, a recovered attempt or a call never
 * placed: settle the attempt (AttemptSettlement, idempotent). When that fails for any reason but
 * a business rule (the database unreachable, a deadlock), the outcome goes to a settle job of its
 * own instead of being lost (decisions.md 16.18); only when that job cannot be stored either does
 * this reject, and the sender (provider redelivery, sweep, attempt job) tries again.
 *
 * Endings that arrive while others are being written are settled together (GroupedRuns,
 * decisions.md 16.31): their calls and contacts read in one go, then one transaction for the
 * group. Should the group's transaction fail, each of its endings is settled on its own as above,
 * so one ending's failure is never another's.
 */
@Injectable()
export class CallEndings {
  private readonly logger = new Logger('CallEndings');
  private readonly groups: GroupedRuns<Ending, CallEndingReport>;

  constructor(
    private readonly execution: CampaignExecution,
    private readonly callLog: CallLog,
    private readonly settlement: AttemptSettlement,
    private readonly settlements: SettlementQueue,
    private readonly uow: UnitOfWork,
    config: AppConfig,
  ) {
    // ENGINE_GROUP_MAX and ENGINE_GROUPS_IN_FLIGHT (decisions.md 16.37).
    this.groups = new GroupedRuns<Ending, CallEndingReport>((endings) => this.endGroup(endings), {
      maxGroup: config.engineGroupMax,
      concurrency: config.engineGroupsInFlight,
      keyOf: (ending) => ending.callId,
    });
  }

  end(callId: string, result: VoiceCallResult, known?: KnownAttempt): Promise<CallEndingReport> {
    return this.groups.submit({ callId, result, known });
  }

  /**
   * A provider's `ended` event (decisions.md 16.24): an event id applied before is a duplicate; one
   * settled is noted as applied (in the settlement's transaction when settled with others,
   * decisions.md 16.33), and so is one deferred to its settle job.
   */
  endEvent(event: VoiceCallEvent & { type: 'ended' }): Promise<CallEndingReport> {
    return this.groups.submit({ callId: event.callId, result: event.result, event: { provider: event.provider, eventId: event.eventId, type: event.type } });
  }

  private async endGroup(endings: Ending[]): Promise<Array<PromiseSettledResult<CallEndingReport>>> {
    let reports: Array<PromiseSettledResult<CallEndingReport>> | null = null;
    if (endings.length > 1) {
      try {
        reports = (await this.settleGroup(endings)).map((value) => ({ status: 'fulfilled' as const, value }));
      } catch (error) {
        this.logger.warn(`${endings.length} call endings could not be settled together (${(error as Error).message}): settling each on its own`);
      }
    }
    reports ??= await Promise.allSettled(endings.map((ending) => this.endAlone(ending)));
    return reports;
  }

  /** The group in one transaction; any failure rejects the whole group (nothing written). */
  private async settleGroup(group: Ending[]): Promise<CallEndingReport[]> {
    const reports: CallEndingReport[] = group.map(() => ({ state: 'not_an_attempt' }));
    const duplicates = await this.appliedBefore(group);
    duplicates.forEach((i) => (reports[i] = { state: 'duplicate' }));
    const endings = group.filter((_, i) => !duplicates.has(i));
    const indexes = group.flatMap((_, i) => (duplicates.has(i) ? [] : [i]));
    const attempts = await this.attemptsOf(endings);
    const settling = endings.flatMap((ending, k) => {
      const attempt = attempts[k];
      if (!attempt) return [];
      const { contactId, attemptSeq, campaign } = attempt;
      return [{ index: indexes[k], input: { contactId, attemptSeq, callId: ending.callId, campaign, result: ending.result, event: ending.event } }];
    });
    if (settling.length === 0) return reports;
    const settled = await this.settlement.settleMany(settling.map((s) => s.input));
    settling.forEach((s, k) => (reports[s.index] = { state: 'settled', settled: settled[k] }));
    return reports;
  }

  /** The group's endings whose provider event was applied before (their indexes), one statement per provider. */
  private async appliedBefore(group: readonly Ending[]): Promise<Set<number>> {
    const duplicates = new Set<number>();
    for (const provider of new Set(group.flatMap((ending) => (ending.event ? [ending.event.provider] : [])))) {
      const mine = group.flatMap((ending, i) => (ending.event?.provider === provider ? [i] : []));
      const applied = await this.callLog.appliedEvents(provider, mine.map((i) => group[i].event!.eventId));
      for (const i of mine) if (applied.has(group[i].event!.eventId)) duplicates.add(i);
    }
    return duplicates;
  }

  private async endAlone(ending: Ending): Promise<CallEndingReport> {
    const { event } = ending;
    if (event && (await this.callLog.eventApplied(event.provider, event.eventId))) return { state: 'duplicate' };
    const report = await this.settleAlone(ending);
    if (event && report.state !== 'not_an_attempt') await this.callLog.noteEvent({ ...event, callId: ending.callId });
    return report;
  }

  private async settleAlone({ callId, result, known }: Ending): Promise<CallEndingReport> {
    const attempt = known ?? (await this.attemptsOf([{ callId, result }]))[0];
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
   * The attempt each campaign call belongs to (what the caller knew, else read: the calls in one
   * statement, each campaign once, the contacts under their locks in one transaction). A call is
   * its contact's current attempt when it is the contact's current call; otherwise the call is
   * stale (the contact moved on) and is settled as such: recorded and billed, the contact
   * untouched. Null for what is not a campaign attempt.
   */
  private async attemptsOf(endings: readonly Ending[]): Promise<Array<KnownAttempt | null>> {
    const unknown = endings.filter((ending) => !ending.known).map((ending) => ending.callId);
    if (unknown.length === 0) return endings.map((ending) => ending.known!);
    const calls = new Map((await this.callLog.findMany(unknown)).map((call) => [call.id, call]));
    // Inbound calls an INBOUND campaign took settle like its attempts (decisions.md 36.3); declined ones have no campaign.
    const attemptCall = (callId: string) => {
      const call = calls.get(callId);
      return call && (call.kind === 'campaign' || call.kind === 'inbound') && call.campaignId && call.contactId ? { ...call, campaignId: call.campaignId, contactId: call.contactId } : null;
    };
    const campaigns = new Map<string, ExecutionCampaign | null>();
    for (const callId of unknown) {
      const call = attemptCall(callId);
      if (call && !campaigns.has(call.campaignId)) campaigns.set(call.campaignId, await this.execution.campaign(call.campaignId));
    }
    const contactIds = unknown.flatMap((callId) => {
      const call = attemptCall(callId);
      return call && campaigns.get(call.campaignId) ? [call.contactId] : [];
    });
    const contacts = new Map((contactIds.length > 0 ? await this.uow.run(() => this.execution.lockContacts(contactIds)) : []).map((c) => [c.id, c]));
    return endings.map((ending) => {
      if (ending.known) return ending.known;
      const call = attemptCall(ending.callId);
      const campaign = call ? campaigns.get(call.campaignId) : null;
      if (!call || !campaign) return null;
      const contact = contacts.get(call.contactId);
      const attemptSeq = contact && contact.currentCallId === ending.callId ? contact.attemptSeq : -1;
      return { contactId: call.contactId, attemptSeq, campaign };
    });
  }
}
