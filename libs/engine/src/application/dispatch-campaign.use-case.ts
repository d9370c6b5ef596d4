import { Injectable, Logger } from '@nestjs/common';
import { AgentDirectory } from '@outreach/agents';
import { CampaignSpend, CreditStatus, Tariffs, WalletBalance } from '@outreach/billing';
import {
  CampaignExecution,
  channelLegs,
  ClaimedContact,
  ContactLeg,
  ContactTimeline,
  dialScheduleOf,
  dialWindowAt,
  ExecutionCampaign,
  hasVoiceLeg,
  localeKey,
  nextContactOpening,
  nextDialOpening,
  numberToDial,
  RecipientLocale,
  recipientClosureAt,
  RecipientRules,
  recipientRulesOf,
  SkipReason,
  startOfNextLocalDay,
} from '@outreach/campaigns';
import { DoNotCallList } from '@outreach/dnc';
import { leadFinalJob } from '@outreach/results';
import { AppConfig, Clock, Outbox, ShortLivedCache, UnitOfWork } from '@outreach/core';
import { PhoneNumberDirectory } from '@outreach/telephony';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { freeSlots } from '../domain/dispatch-slots';
import { BUDGET_REACHED, callsWithinBudget, perCallMaxMinor } from '../domain/spend-guard';
import { retryClaimLimit } from '../domain/retry-share';
import { CoalescedRuns } from './coalesced-runs';
import { attemptJobs } from './engine-jobs';
import { DirectEnqueue, DispatchScheduler, JourneySteps } from './engine.ports';

/** An agent's call length when the agent cannot be read (the agents module's default). */
const FALLBACK_MAX_CALL_SECS = 600;
/** Claim rounds per run when do-not-call contacts used up the slots of a round. */
const MAX_ROUNDS = 5;
/** A journey's contacts are claimed for its call steps only (decisions.md 37.12). */
const JOURNEY_LEGS: readonly ContactLeg[] = ['VOICE'];
/** Due contacts given a `skipped` timeline event per run when a block keeps them waiting (decisions.md 29.3). */
export const SKIP_EVENTS_PER_RUN = 500;
/** Why the service pauses a campaign none of whose caller ids can place a call (decisions.md 13.13). */
export const NO_USABLE_CALLER_ID = 'no_usable_caller_id';

export type DispatchState =
  | 'not_running'
  | 'not_dialable'
  | 'completed'
  | 'credit_exhausted'
  /** Paused by the service: no caller id of the campaign is on an enabled carrier. */
  | 'paused'
  | 'outside_window'
  /** Every contact due now is outside its recipient's hours or on a holiday (decisions.md 28.4). */
  | 'outside_recipient_hours'
  | 'daily_cap_reached'
  /** The budget fits no more calls while some are in flight: their endings wake it (decisions.md 29.1). */
  | 'budget_reached'
  | 'dispatched';

export interface DispatchReport {
  state: DispatchState;
  /** Attempts started by this run. */
  claimed: number;
  /** Contacts found on the do-not-call list at claim time (DO_NOT_CALL, no call). */
  doNotCall: number;
  /** When the dispatcher asked to be woken next (null: by an event only). */
  nextWakeAt: Date | null;
}

/**
 * One dispatch run for a campaign (decisions.md 16.2, 16.3): completes it or marks it CREDIT_EXHAUSTED when due,
 * honours the daily window, dial days, schedule, daily cap and cooldown, then claims as many due
 * contacts as there are free slots — all in one transaction under the workspace's dispatch lock
 * (so concurrent dispatchers never exceed a reservation or the allocation), with one attempt job
 * per claimed contact written to the outbox in that same transaction. Finally it asks to be woken
 * again: at the window's opening, the next local day (cap), the next due retry, or after
 * DISPATCH_TICK_MS while there is work. "Now" always comes from the Clock.
 */
@Injectable()
export class DispatchCampaign {
  constructor(
    private readonly execution: CampaignExecution,
    private readonly credit: CreditStatus,
    private readonly wallet: WalletBalance,
    private readonly workspaces: WorkspaceAdministration,
    private readonly agents: AgentDirectory,
    private readonly numbers: PhoneNumberDirectory,
    private readonly dnc: DoNotCallList,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly scheduler: DispatchScheduler,
    private readonly direct: DirectEnqueue,
    private readonly config: AppConfig,
    private readonly spend: CampaignSpend,
    private readonly tariffs: Tariffs,
    private readonly timeline: ContactTimeline,
    private readonly journeys: JourneySteps,
  ) {}

  private readonly logger = new Logger('DispatchCampaign');
  private readonly callerIdUsable = new ShortLivedCache<boolean>(1000);
  /**
   * A campaign's recipient locales with work left, keyed by campaign, contact count and runningSince: a new
   * contact or a restart changes the key; a single contact retried waits at most the TTL.
   */
  private readonly locales = new ShortLivedCache<RecipientLocale[]>(15_000);

  /** Runs per campaign in this process: at most one running and one waiting to start. */
  private readonly runs = new CoalescedRuns<DispatchReport>();

  /**
   * Dispatches the campaign. Requests for a campaign that arrive while a run of it is under way
   * in this process share ONE follow-up run (which starts after they arrived, so none is lost):
   * a burst of wake-ups (one per finished attempt) costs a few runs, not one each.
   */
  execute(campaignId: string): Promise<DispatchReport> {
    return this.runs.run(campaignId, () => this.runOnce(campaignId));
  }

  private async runOnce(campaignId: string): Promise<DispatchReport> {
    const report = (state: DispatchState, nextWakeAt: Date | null = null, claimed = 0, doNotCall = 0): DispatchReport => ({
      state,
      claimed,
      doNotCall,
      nextWakeAt,
    });
    const campaign = await this.execution.campaign(campaignId);
    if (!campaign || campaign.status !== 'RUNNING') return report('not_running');
    // Inbound campaigns are dialled by callers. CUSTOM campaigns are run by their workflow
    // (decisions.md 37.12): new contacts' runs start here, and only contacts a call step made due
    // (leg VOICE) are claimed, as voice contacts.
    const journey = campaign.channel === 'CUSTOM';
    if (journey) await this.journeys.admit(campaignId);
    const legs = journey ? JOURNEY_LEGS : channelLegs(campaign.channel);
    if (campaign.source === 'INBOUND' || legs.length === 0) return report('not_dialable');
    const voiceLeg = hasVoiceLeg(campaign.channel);

    const now = this.clock.now();
    if (campaign.scheduledEndAt && campaign.scheduledEndAt.getTime() <= now.getTime()) {
      await this.execution.completeIfDone(campaignId);
      return report('completed');
    }
    const exhausted = async (claimedSoFar: number, doNotCallSoFar: number): Promise<DispatchReport> => {
      await this.skipDue(campaignId, now, 'credit_exhausted', null);
      await this.execution.exhaustCredit(campaign.workspaceId);
      return report('credit_exhausted', null, claimedSoFar, doNotCallSoFar);
    };
    if (!(await this.maySpend(campaign.workspaceId, now))) return exhausted(0, 0);

    const schedule = dialScheduleOf(campaign);
    const window = dialWindowAt(schedule, now);
    if (!window.open) {
      await this.skipDue(campaignId, now, 'outside_campaign_window', window.nextOpening);
      return report('outside_window', await this.wakeAt(campaign, window.nextOpening, now));
    }

    // Every caller id on a carrier the operator switched off: dialling would only fail. The service
    // pauses the campaign and tells its notification members why; resume once a number is usable.
    // (A cached "none" is checked again before pausing: a carrier switched back on counts at once.)
    if (voiceLeg && !(await this.callerIdUsable.get(campaignId, () => this.hasUsableCallerId(campaign))) && !(await this.hasUsableCallerId(campaign))) {
      if (await this.execution.pauseForService(campaignId, NO_USABLE_CALLER_ID)) {
        this.logger.warn(`campaign ${campaignId} paused: ${NO_USABLE_CALLER_ID}`);
        return report('paused');
      }
      return report('not_running');
    }

    const settings = campaign.settings;
    // Recipient-local hours and holidays (decisions.md 28.4): only contacts whose locale is open now are claimed.
    const rules = recipientRulesOf(settings);
    const openLocales = rules ? await this.openLocales(campaign, rules, now) : null;
    const workspace = await this.workspaces.get(campaign.workspaceId);
    const agent = campaign.agentId ? await this.agents.find(campaign.workspaceId, campaign.agentId) : null;
    const maxCallSecs = agent?.maxCallDurationSecs ?? FALLBACK_MAX_CALL_SECS;
    const deadlineAt = new Date(now.getTime() + (maxCallSecs + this.config.reaperGraceSeconds) * 1000);
    // The spend guard's price of one call at most (decisions.md 29.1); read only for a campaign with a budget.
    // A message leg's price is one message (decisions.md 33); a campaign with a voice leg keeps the call's worst case.
    const rates = settings.budgetMinor === null ? null : await this.tariffs.rates(campaign.workspaceId);
    const perCallMax = rates === null ? 0 : voiceLeg ? Math.max(perCallMaxMinor(rates.voiceMinuteMinor, maxCallSecs), rates.messageMinor) : rates.messageMinor;

    let claimed = 0;
    let doNotCall = 0;
    let capReached = false;
    let budgetReached = false;
    /** No free line in the last round: contacts wait for a line, not for their recipients. */
    let linesFull = false;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const result = await this.uow.run(async () => {
        await this.execution.lockWorkspace(campaign.workspaceId);
        const load = await this.execution.workspaceLoad(campaign.workspaceId);
        // The money again, read after the lines (decisions.md 16.39): a settlement commits the line it
        // frees and its debit together, so a line seen free here comes with its debit seen below. Read
        // only before the rounds, a wallet the freed call had just emptied let one more call through.
        if (!(await this.maySpend(campaign.workspaceId, now))) return { dialing: 0, blocked: 0, capReached: false, budgetReached: false, dry: true };
        let limit = freeSlots(
          campaignId,
          workspace.concurrency,
          load.map((l) => ({ ...l, running: l.status === 'RUNNING' })),
        );
        // Each leg has its own daily cap (decisions.md 33): dailyDialCap for calls, dailyMessageCap for messages.
        const capsLeft = new Map<ContactLeg, number>();
        for (const leg of legs) {
          const cap = leg === 'VOICE' ? settings.dailyDialCap : settings.dailyMessageCap;
          if (cap === null) capsLeft.set(leg, Number.POSITIVE_INFINITY);
          else capsLeft.set(leg, cap - (await (leg === 'VOICE' ? this.execution.dialsOn(campaignId, window.localDay) : this.execution.messagesOn(campaignId, window.localDay))));
        }
        const capLeft = Math.max(...capsLeft.values());
        limit = Math.min(limit, Math.max(0, capLeft));
        let budgetLeft = Number.POSITIVE_INFINITY;
        if (settings.budgetMinor !== null) {
          // In flight first, then the spend: an attempt settled in between is counted twice, never missed.
          const inFlight = load.find((l) => l.campaignId === campaignId)?.inFlight ?? 0;
          const spentMinor = await this.spend.spentMinor(campaignId);
          budgetLeft = callsWithinBudget({ budgetMinor: settings.budgetMinor, spentMinor, inFlight, perCallMaxMinor: perCallMax });
          limit = Math.min(limit, budgetLeft);
        }
        if (limit <= 0) return { dialing: 0, blocked: 0, capReached: capLeft <= 0, budgetReached: budgetLeft <= 0, linesFull: capLeft > 0 && budgetLeft > 0 };
        const own = load.find((l) => l.campaignId === campaignId);
        // Retries' share of the lines while first dials wait (decisions.md 35.7), spent across the legs.
        let retryLimit = retryClaimLimit({
          reservedConcurrency: campaign.reservedConcurrency,
          retryConcurrencyPercent: settings.retryConcurrencyPercent,
          retriesInFlight: own?.retriesInFlight ?? 0,
        });
        // One claim per leg, each within its cap (a single-leg channel: one claim, no leg filter).
        const contacts: Array<ClaimedContact & { leg: ContactLeg }> = [];
        for (const leg of legs) {
          const legLimit = Math.min(limit - contacts.length, Math.max(0, capsLeft.get(leg)!));
          if (legLimit <= 0) continue;
          const claimedNow = await this.execution.claimDue(campaignId, {
            now,
            limit: legLimit,
            cooldownMs: settings.cooldownMinutes * 60_000,
            deadlineAt,
            openLocales,
            retryLimit,
            leg: legs.length > 1 || journey ? { wanted: leg, first: !journey && leg === legs[0] } : null,
          });
          retryLimit = Math.max(0, retryLimit - claimedNow.filter((c) => c.attempts > 1).length);
          contacts.push(...claimedNow.map((c) => ({ ...c, leg })));
        }
        if (contacts.length === 0) return { dialing: 0, blocked: 0, capReached: false, budgetReached: false };
        // Do-not-call is checked per number: the one each contact would dial now (decisions.md 16.19).
        const listed = await this.dnc.blockedAmong(
          campaign.workspaceId,
          contacts.map((c) => numberToDial(c)),
        );
        const blocked = contacts.filter((c) => listed.has(numberToDial(c)));
        const dialing = contacts.filter((c) => !listed.has(numberToDial(c)));
        const ended = await this.execution.numberListed(blocked);
        const messages = dialing.filter((c) => c.leg !== 'VOICE').length;
        await this.execution.addDials(campaignId, window.localDay, dialing.length - messages);
        await this.execution.addMessages(campaignId, window.localDay, messages);
        // The day's caps are reached when no leg has any left.
        const capReached = legs.every((leg) => dialing.filter((c) => c.leg === leg).length >= capsLeft.get(leg)!);
        await this.timeline.skipped(blocked.map((c) => c.id), 'do_not_call', null);
        await this.timeline.claimed(dialing.map((c) => ({ id: c.id, attempt: c.attempts })));
        const jobs = attemptJobs(dialing);
        // Do-not-call API leads are final without a call: their result is written too.
        const results = campaign.source === 'API' ? ended.map((c) => leadFinalJob(c.id)) : [];
        await this.outbox.enqueue(...jobs, ...results);
        return { dialing: dialing.length, blocked: blocked.length, capReached, budgetReached: dialing.length >= budgetLeft, jobs };
      });
      if (result.jobs?.length) {
        // Committed: start the attempts now rather than at the relay's next poll (the outbox rows remain the guarantee).
        await this.direct.enqueue(result.jobs).catch((error: Error) => this.logger.warn(`direct enqueue failed: ${error.message}`));
      }
      if ('dry' in result) return exhausted(claimed, doNotCall);
      claimed += result.dialing;
      doNotCall += result.blocked;
      capReached = result.capReached;
      budgetReached = result.budgetReached;
      linesFull = result.linesFull === true;
      if (result.blocked === 0) break;
    }

    // The budget fits no more calls (decisions.md 29.1): the contacts left wait for it; once the
    // calls in flight have ended (their debits are then known), a campaign with work left pauses
    // with pauseReason budget_reached.
    if (budgetReached) await this.skipDue(campaignId, now, 'budget_reached', null);
    if (budgetReached && claimed === 0) {
      const work = await this.execution.work(campaignId);
      if (work.inFlight) {
        return report('budget_reached', await this.wakeAt(campaign, new Date(now.getTime() + this.config.dispatchTickMs), now), claimed, doNotCall);
      }
      if (work.pending || work.nextRetryAt !== null) {
        if (await this.execution.pauseForService(campaignId, BUDGET_REACHED)) {
          this.logger.warn(`campaign ${campaignId} paused: ${BUDGET_REACHED}`);
          return report('paused', null, claimed, doNotCall);
        }
        return report('not_running', null, claimed, doNotCall);
      }
    }

    if (claimed > 0 && !capReached) {
      // Attempts under way wake the dispatcher when they end; the tick is the safety net.
      return report('dispatched', await this.wakeAt(campaign, new Date(now.getTime() + this.config.dispatchTickMs), now), claimed, doNotCall);
    }
    const work = await this.execution.work(campaignId);
    if (!work.pending && !work.inFlight && work.nextRetryAt === null) {
      if (await this.execution.completeIfDone(campaignId)) return report('completed', null, claimed, doNotCall);
      // API / CRM_WEBHOOK campaigns wait for leads (the lead intake wakes them); mind scheduledEndAt.
      return report('dispatched', await this.wakeAt(campaign, campaign.scheduledEndAt, now), claimed, doNotCall);
    }
    if (capReached) {
      const opening = nextDialOpening(schedule, startOfNextLocalDay(campaign.timezone, now));
      await this.skipDue(campaignId, now, 'daily_cap', opening);
      return report('daily_cap_reached', await this.wakeAt(campaign, opening, now), claimed, doNotCall);
    }
    const retryOpening = work.nextRetryAt ? nextDialOpening(schedule, new Date(Math.max(work.nextRetryAt.getTime(), now.getTime()))) : null;
    const tick = new Date(now.getTime() + this.config.dispatchTickMs);
    if (rules && !linesFull) {
      // Nothing was claimed: when every contact due now waits for its recipient's hours, sleep until the
      // earliest opening among them (or the next retry not yet due; the tick while attempts are in flight),
      // never a tick loop.
      const due = (await this.execution.dueLocales(campaignId, now)).map((locale) => ({ locale, opening: nextContactOpening(schedule, rules, locale, now) }));
      const openings = due.map((d) => d.opening);
      if (openings.length > 0 && openings.every((o) => o === null || o.getTime() > now.getTime())) {
        await this.skipClosedRecipients(campaign, rules, due, now);
        const nextRetryAt = await this.execution.nextRetryAfter(campaignId, now);
        const laterRetry = nextRetryAt ? nextDialOpening(schedule, nextRetryAt) : null;
        const wake = earliest([...openings, laterRetry, work.inFlight ? tick : null]);
        return report('outside_recipient_hours', await this.wakeAt(campaign, wake, now), claimed, doNotCall);
      }
    }
    if (work.pending || work.inFlight) {
      return report('dispatched', await this.wakeAt(campaign, tick, now), claimed, doNotCall);
    }
    return report('dispatched', await this.wakeAt(campaign, retryOpening, now), claimed, doNotCall);
  }

  /** A positive balance is the common case (one query); at or below zero an active trial may still allow spending. */
  private async maySpend(workspaceId: string, now: Date): Promise<boolean> {
    const { balanceMinor } = await this.wallet.get(workspaceId);
    return balanceMinor > 0 || (await this.credit.canSpend(workspaceId, now));
  }

  /**
   * The contacts a block keeps waiting get a `skipped` timeline event: the first SKIP_EVENTS_PER_RUN
   * due, in claim order (those the run would have dialled). The timeline writes one only when a
   * contact's reason changes, so a dispatcher meeting the same block on every tick adds nothing.
   * Best effort: the timeline never stops dispatch.
   */
  private async skipDue(campaignId: string, now: Date, reason: SkipReason, until: Date | null, locales?: readonly string[]): Promise<void> {
    try {
      await this.timeline.skipped(await this.execution.dueIds(campaignId, now, SKIP_EVENTS_PER_RUN, locales), reason, until);
    } catch (error) {
      this.logger.warn(`campaign ${campaignId}: skip events (${reason}) not recorded: ${(error as Error).message}`);
    }
  }

  /**
   * Every contact due now waits for its recipient (decisions.md 28.4, 29.3): its timeline says why —
   * outside_recipient_hours or holiday — and until its own locale's next opening. The due locales are
   * grouped by (reason, opening), one skipDue per group (a handful: the distinct locales due).
   */
  private async skipClosedRecipients(
    campaign: ExecutionCampaign,
    rules: RecipientRules,
    due: ReadonlyArray<{ locale: RecipientLocale; opening: Date | null }>,
    now: Date,
  ): Promise<void> {
    const groups = new Map<string, { reason: SkipReason; until: Date | null; locales: string[] }>();
    for (const { locale, opening } of due) {
      const reason: SkipReason = recipientClosureAt(rules, locale, campaign.timezone, now) ?? 'outside_recipient_hours';
      const key = `${reason}|${opening?.getTime() ?? ''}`;
      const group = groups.get(key) ?? { reason, until: opening, locales: [] };
      group.locales.push(localeKey(locale));
      groups.set(key, group);
    }
    for (const group of groups.values()) await this.skipDue(campaign.id, now, group.reason, group.until, group.locales);
  }

  /** The keys of the campaign's recipient locales open at `now` (the campaign's own window is open). */
  private async openLocales(campaign: ExecutionCampaign, rules: RecipientRules, now: Date): Promise<string[]> {
    const count = await this.execution.contactCount(campaign.id);
    const key = `${campaign.id}:${count}:${campaign.runningSince?.getTime() ?? ''}`;
    const locales = await this.locales.get(key, () => this.execution.recipientLocales(campaign.id));
    return locales.filter((l) => recipientClosureAt(rules, l, campaign.timezone, now) === null).map(localeKey);
  }

  private async hasUsableCallerId(campaign: ExecutionCampaign): Promise<boolean> {
    const ids = await this.execution.phoneNumberIds(campaign.id);
    if (ids.length === 0) return false;
    return (await this.numbers.findByIds(campaign.workspaceId, ids)).some((n) => n.carrierEnabled);
  }

  /** Asks for a wake-up at `at` (or at scheduledEndAt when that comes first); returns the instant. */
  private async wakeAt(campaign: ExecutionCampaign, at: Date | null, now: Date): Promise<Date | null> {
    let wake = at;
    const end = campaign.scheduledEndAt;
    if (end && end.getTime() > now.getTime() && (wake === null || end.getTime() < wake.getTime())) wake = end;
    if (wake === null) return null;
    await this.scheduler.wakeIn(campaign.id, Math.max(0, wake.getTime() - now.getTime()));
    return wake;
  }
}

/** The earliest of the instants given (nulls ignored); null when none. */
function earliest(instants: ReadonlyArray<Date | null>): Date | null {
  let first: Date | null = null;
  for (const at of instants) if (at && (first === null || at.getTime() < first.getTime())) first = at;
  return first;
}
