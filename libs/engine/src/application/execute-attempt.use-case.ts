import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AgentDirectory, AgentSummary, callVariables } from '@outreach/agents';
import { CallLog } from '@outreach/calls';
import { AttemptContact, calleeName, CampaignExecution, ContactTimeline, currentLeg, ExecutionCampaign, isMessageLeg, numberToDial } from '@outreach/campaigns';
import { MessageLegs } from '@outreach/messaging';
import { DoNotCallList } from '@outreach/dnc';
import { leadFinalJob } from '@outreach/results';
import { AppConfig, Clock, GroupedRuns, isAppError, Outbox, ShortLivedCache, UnitOfWork } from '@outreach/core';
import { PhoneNumberDirectory, PhoneNumberView, VoiceCallResult, VoiceProvider } from '@outreach/telephony';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { CallEndingReport, CallEndings } from './call-endings';
import { AttemptPayload, dispatchJob } from './engine-jobs';
import { JourneySteps } from './engine.ports';
import { MessageAttempt, MessageAttemptReport } from './message-attempt';

const FALLBACK_MAX_CALL_SECS = 600;
/** Claimed attempts still dial while the campaign is paused or out of credit: in-flight attempts finish. */
const DIALABLE_STATUSES = new Set(['RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED']);
/** How long a campaign's caller ids and agent are reused between attempts (number/carrier changes apply within it). */
const LOOKUP_TTL_MS = 1000;

export type AttemptReport =
  | { state: 'stale' | 'released' | 'do_not_call' }
  /** A WhatsApp or email leg (decisions.md 33): MessageAttempt's report. */
  | { state: 'message'; report: MessageAttemptReport }
  /** WHATSAPP_THEN_VOICE: the contact replied to the message within the window, so it is not called. */
  | { state: 'replied' }
  /** The provider accepted the call: its ending arrives as an event (or the live-call sweep finds it). */
  | { state: 'placed'; providerCallId: string }
  /** Ended without a dial (no usable number, refused by the provider, never placed): settled or deferred. */
  | CallEndingReport;

type Started = { callId: string; from: string | null; contact: AttemptContact; campaign: ExecutionCampaign; agent: AgentSummary | null };

/** How an attempt's start transaction ended (startAlone / startTogether). */
type Start =
  | { state: 'stale' | 'released' | 'do_not_call' | 'replied' }
  | { state: 'message'; contact: AttemptContact; campaign: ExecutionCampaign }
  | { state: 'recover'; callId: string; contact: AttemptContact; campaign: ExecutionCampaign }
  | ({ state: 'started' } & Started);

/** A call the provider accepted: its Call to move to DIALING. */
type Acceptance = { callId: string; providerCallId: string | null };

/**
 * One attempt (job attempts/attempt): re-checks the contact and campaign in the database, checks
 * the do-not-call list, picks a caller id, records the Call (QUEUED), and asks the VoiceProvider
 * to place it. The job ends as soon as the provider accepted the call (DIALING); nothing is held
 * in memory while the call goes on. Its ending arrives as a provider event (EngineCallEvents) or,
 * when that is overdue, through the live-call sweep (SweepLiveCalls, decisions.md 16.44), and is
 * settled by CallEndings (decisions.md 16.24).
 *
 * The provider's record is the truth, not this process (decisions.md 16.18): a job that runs again
 * for an attempt whose Call was already recorded (its worker died while placing it) asks the
 * provider: an ended call is settled with what the provider says, a call it has is left to its
 * events (and the sweep), and a call it never accepted is placed now with the same call id (the
 * provider's idempotency key), so nobody is dialled twice and nobody waits for a timer.
 *
 * Attempt jobs a worker runs at once share their start transaction, and calls accepted at about
 * the same time their DIALING transaction (GroupedRuns, decisions.md 16.32); each job still dials
 * its own call and ends on its own.
 */
@Injectable()
export class ExecuteAttempt {
  private readonly logger = new Logger('ExecuteAttempt');
  private readonly callerIds = new ShortLivedCache<PhoneNumberView[]>(LOOKUP_TTL_MS);
  private readonly agentsById = new ShortLivedCache<AgentSummary | null>(LOOKUP_TTL_MS);
  private readonly workspaceNames = new ShortLivedCache<string>(LOOKUP_TTL_MS);
  /** Calls accepted at about the same time are recorded together (decisions.md 16.32). */
  private readonly acceptances: GroupedRuns<Acceptance, void>;
  /** Attempt jobs running at once start together (decisions.md 16.32). */
  private readonly starts: GroupedRuns<AttemptPayload, Start>;

  constructor(
    private readonly execution: CampaignExecution,
    private readonly callLog: CallLog,
    private readonly voice: VoiceProvider,
    private readonly numbers: PhoneNumberDirectory,
    private readonly agents: AgentDirectory,
    private readonly workspaces: WorkspaceAdministration,
    private readonly dnc: DoNotCallList,
    private readonly endings: CallEndings,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    config: AppConfig,
    private readonly timeline: ContactTimeline,
    private readonly messages: MessageAttempt,
    private readonly messageLegs: MessageLegs,
    private readonly journeys: JourneySteps,
  ) {
    // ENGINE_GROUP_MAX and ENGINE_GROUPS_IN_FLIGHT (decisions.md 16.37).
    const limits = { maxGroup: config.engineGroupMax, concurrency: config.engineGroupsInFlight };
    this.acceptances = new GroupedRuns<Acceptance, void>((group) => this.acceptGroup(group), { ...limits, keyOf: (acceptance) => acceptance.callId });
    this.starts = new GroupedRuns<AttemptPayload, Start>((group) => this.startGroup(group), { ...limits, keyOf: (attempt) => attempt.contactId });
  }

  async execute(contactId: string, attemptSeq: number): Promise<AttemptReport> {
    const started = await this.starts.submit({ contactId, attemptSeq });
    if (started.state === 'message') {
      // The leg starts from the contact and campaign this transaction read (no second read, decisions.md 44.7).
      return { state: 'message', report: await this.messages.execute(contactId, attemptSeq, { read: { contact: started.contact, campaign: started.campaign } }) };
    }
    if (started.state === 'recover') return this.recover(started.callId, started.contact, started.campaign);
    if (started.state !== 'started') return started;
    return this.dial(started);
  }

  /**
   * The attempts that start together (decisions.md 16.32): most go through `startTogether` in one
   * transaction; the ones it leaves (and every one of a group it could not write) start on their
   * own, as a lone attempt does.
   */
  private async startGroup(group: AttemptPayload[]): Promise<Array<PromiseSettledResult<Start>>> {
    if (group.length > 1) {
      try {
        const starts = await this.startTogether(group);
        return Promise.allSettled(group.map((a, i) => starts[i] ?? this.startAlone(a.contactId, a.attemptSeq)));
      } catch (error) {
        this.logger.warn(`${group.length} attempts could not start together (${(error as Error).message}): starting each on its own`);
      }
    }
    return Promise.allSettled(group.map((a) => this.startAlone(a.contactId, a.attemptSeq)));
  }

  /**
   * The usual start of several attempts in ONE transaction: the contacts locked in id order, each
   * campaign read once, the do-not-call list asked once per workspace, the calls recorded in one
   * statement, the contacts marked in one, and one timeline insert. An attempt off that path — a
   * call on record (recover), a campaign no longer dialling, a message leg, a journey's call, the
   * reply check of WHATSAPP_THEN_VOICE, a number listed since the claim — is left undefined, for
   * `startAlone`.
   */
  private startTogether(group: readonly AttemptPayload[]): Promise<Array<Start | undefined>> {
    return this.uow.run(async () => {
      const read = await this.lockAttempts(group);
      const starts: Array<Start | undefined> = new Array(group.length);
      const dialling: Array<{ index: number; contact: AttemptContact; campaign: ExecutionCampaign }> = [];
      for (const [i, attempt] of read.entries()) {
        if (!attempt) {
          starts[i] = { state: 'stale' };
          continue;
        }
        const { contact, campaign } = attempt;
        if (contact.currentCallId) {
          starts[i] = campaign ? { state: 'recover', callId: contact.currentCallId, contact, campaign } : { state: 'stale' };
          continue;
        }
        const alone =
          !campaign ||
          !DIALABLE_STATUSES.has(campaign.status) ||
          campaign.channel === 'CUSTOM' ||
          campaign.channel === 'WHATSAPP_THEN_VOICE' ||
          isMessageLeg(currentLeg(campaign.channel, contact.leg));
        if (!alone) dialling.push({ index: i, contact, campaign: campaign! });
      }
      const calls: Array<(typeof dialling)[number] & { from: string | null; agent: AgentSummary | null }> = [];
      for (const workspaceId of new Set(dialling.map((d) => d.campaign.workspaceId))) {
        const mine = dialling.filter((d) => d.campaign.workspaceId === workspaceId);
        const listed = await this.dnc.blockedAmong(workspaceId, mine.map((d) => numberToDial(d.contact)));
        for (const d of mine) {
          if (listed.has(numberToDial(d.contact))) continue; // listed since the claim: its own transaction moves it on
          calls.push({ ...d, from: await this.pickFromNumber(d.campaign, d.contact), agent: await this.agentOf(d.campaign, d.campaign.agentId) });
        }
      }
      if (calls.length === 0) return starts;
      const ids = await this.callLog.startMany(
        calls.map(({ contact, campaign, from }) => ({
          workspaceId: campaign.workspaceId,
          campaignId: campaign.id,
          contactId: contact.id,
          agentId: campaign.agentId,
          fromNumber: from,
          toNumber: numberToDial(contact),
          attemptNumber: contact.attempts,
          kind: 'campaign' as const,
        })),
      );
      await this.execution.markCallsStarted(calls.map(({ contact }, k) => ({ contactId: contact.id, attemptSeq: contact.attemptSeq, callId: ids[k].callId })));
      await this.timeline.record(
        ...calls.map(({ contact }, k) => ({
          contactId: contact.id,
          type: 'attempt_started' as const,
          detail: { attempt: contact.attempts, callId: ids[k].callId, toNumber: numberToDial(contact) },
        })),
      );
      calls.forEach(({ index, contact, campaign, from, agent }, k) => (starts[index] = { state: 'started', callId: ids[k].callId, from, contact, campaign, agent }));
      return starts;
    });
  }

  /**
   * The attempts' contacts under their row locks (taken in id order) and each campaign read once;
   * null for a stale attempt (the contact gone, no longer IN_PROGRESS, or on another attempt).
   */
  private async lockAttempts(attempts: readonly AttemptPayload[]): Promise<Array<{ contact: AttemptContact; campaign: ExecutionCampaign | null } | null>> {
    const contacts = new Map((await this.execution.lockContacts(attempts.map((a) => a.contactId))).map((c) => [c.id, c]));
    const campaigns = new Map<string, ExecutionCampaign | null>();
    const read: Array<{ contact: AttemptContact; campaign: ExecutionCampaign | null } | null> = [];
    for (const { contactId, attemptSeq } of attempts) {
      const contact = contacts.get(contactId);
      if (!contact || contact.status !== 'IN_PROGRESS' || contact.attemptSeq !== attemptSeq) {
        read.push(null);
        continue;
      }
      let campaign = campaigns.get(contact.campaignId);
      if (campaign === undefined) campaigns.set(contact.campaignId, (campaign = await this.execution.campaign(contact.campaignId)));
      read.push({ contact, campaign });
    }
    return read;
  }

  /** One attempt's start in its own transaction: every case, as the attempt job has always run it. */
  private startAlone(contactId: string, attemptSeq: number): Promise<Start> {
    return this.uow.run(async (): Promise<Start> => {
      const contact = await this.execution.lockContact(contactId);
      if (!contact || contact.status !== 'IN_PROGRESS' || contact.attemptSeq !== attemptSeq) return { state: 'stale' };
      const campaign = await this.execution.campaign(contact.campaignId);
      if (contact.currentCallId) {
        if (!campaign) return { state: 'stale' };
        return { state: 'recover', callId: contact.currentCallId, contact, campaign };
      }
      if (!campaign || !DIALABLE_STATUSES.has(campaign.status)) {
        await this.execution.release(contactId, attemptSeq);
        return { state: 'released' };
      }
      if (await this.dnc.isBlocked(campaign.workspaceId, numberToDial(contact))) {
        // Listed since the claim: the contact moves on to its next number, or ends DO_NOT_CALL.
        const ended = await this.execution.numberListed([contact]);
        await this.timeline.skipped([contactId], 'do_not_call', null);
        await this.outbox.enqueue(dispatchJob(campaign.id), ...(campaign.source === 'API' && ended.length > 0 ? [leadFinalJob(contactId)] : []));
        return { state: 'do_not_call' };
      }
      const leg = currentLeg(campaign.channel, contact.leg);
      if (isMessageLeg(leg)) return { state: 'message', contact, campaign };
      if (await this.repliedToMessageLeg(campaign, contact)) return { state: 'replied' };
      const from = await this.pickFromNumber(campaign, contact);
      // A journey's call step names its own agent (decisions.md 37.12).
      const agentId = campaign.channel === 'CUSTOM' ? await this.journeys.callAgent(contactId) : campaign.agentId;
      const agent = await this.agentOf(campaign, agentId);
      const { callId } = await this.callLog.start({
        workspaceId: campaign.workspaceId,
        campaignId: campaign.id,
        contactId,
        agentId,
        fromNumber: from,
        toNumber: numberToDial(contact),
        attemptNumber: contact.attempts,
        kind: 'campaign',
      });
      await this.execution.markCallStarted(contactId, attemptSeq, callId);
      await this.timeline.record({
        contactId,
        type: 'attempt_started',
        detail: { attempt: contact.attempts, callId, toNumber: numberToDial(contact) },
      });
      return { state: 'started', callId, from, contact, campaign, agent };
    });
  }

  /**
   * The message legs claimed together (job attempts/message-batch, decisions.md 47.1): the contacts,
   * their campaign and the do-not-call list read once for the batch (no lock: nothing is written
   * here, and the settlement re-checks each contact under its lock), then MessageAttempt sends them
   * together. A contact off that path — no longer on this attempt, its number listed since the
   * claim, its campaign no longer sending, a call on record, a voice leg — runs `execute` on its
   * own, exactly as its own attempt job would. Reports in the order of `attempts`.
   */
  async executeMessages(attempts: ReadonlyArray<{ contactId: string; attemptSeq: number }>): Promise<AttemptReport[]> {
    const reports: AttemptReport[] = new Array(attempts.length);
    const read = await this.lockAttempts(attempts);
    const candidates: Array<{ index: number; contact: AttemptContact; campaign: ExecutionCampaign }> = [];
    const alone: number[] = [];
    for (const [i, attempt] of read.entries()) {
      if (!attempt) {
        reports[i] = { state: 'stale' };
        continue;
      }
      const { contact, campaign } = attempt;
      if (contact.currentCallId || !campaign || !DIALABLE_STATUSES.has(campaign.status) || !isMessageLeg(currentLeg(campaign.channel, contact.leg))) alone.push(i);
      else candidates.push({ index: i, contact, campaign });
    }
    const sending: typeof candidates = [];
    for (const workspaceId of new Set(candidates.map((c) => c.campaign.workspaceId))) {
      const mine = candidates.filter((c) => c.campaign.workspaceId === workspaceId);
      const listed = await this.dnc.blockedAmong(workspaceId, mine.map((c) => numberToDial(c.contact)));
      for (const c of mine) {
        if (listed.has(numberToDial(c.contact))) alone.push(c.index);
        else sending.push(c);
      }
    }
    const sent = await this.messages.executeMany(sending.map(({ contact, campaign }) => ({ contact, campaign })));
    sending.forEach((c, k) => (reports[c.index] = { state: 'message', report: sent[k] }));
    for (const i of alone) reports[i] = await this.execute(attempts[i].contactId, attempts[i].attemptSeq);
    return reports;
  }

  /**
   * WHATSAPP_THEN_VOICE (decisions.md 33): the voice leg calls only contacts who have not replied on
   * WhatsApp since its message went out; one who did is COMPLETED (`replied`), with no call. Inside
   * the attempt's transaction, under the contact's lock.
   */
  private async repliedToMessageLeg(campaign: ExecutionCampaign, contact: AttemptContact): Promise<boolean> {
    if (campaign.channel !== 'WHATSAPP_THEN_VOICE' || contact.messageLegAt === null) return false;
    if (!(await this.messageLegs.repliedSince(campaign.workspaceId, 'WHATSAPP', contact.phone, contact.messageLegAt))) return false;
    const now = this.clock.now();
    await this.execution.recordOutcome(contact.id, contact.attemptSeq, {
      status: 'COMPLETED',
      nextAttemptAt: null,
      lastOutcome: 'replied',
      lastAttemptAt: now,
      incompleteRetry: false,
      nextNumber: false,
      connectedPhone: null,
      legState: {
        leg: contact.leg,
        messageSends: contact.messageSends,
        messageTransient: contact.messageTransient,
        messageLegAt: contact.messageLegAt,
        messageOutcome: 'replied',
        followupCallId: contact.followupCallId,
        switchLeg: false,
      },
    });
    await this.timeline.record({ contactId: contact.id, type: 'attempt_ended', detail: { attempt: contact.attempts, leg: 'VOICE', outcome: 'replied', status: 'COMPLETED' } });
    await this.outbox.enqueue(dispatchJob(campaign.id), ...(campaign.source === 'API' ? [leadFinalJob(contact.id)] : []));
    return true;
  }

  /** An attempt whose Call was recorded by an earlier run: the provider says what became of it. */
  private async recover(callId: string, contact: AttemptContact, campaign: ExecutionCampaign): Promise<AttemptReport> {
    const status = await this.voice.lookupCall(callId);
    const from = await this.pickFromNumber(campaign, contact);
    const agentId = campaign.channel === 'CUSTOM' ? await this.journeys.callAgent(contact.id) : campaign.agentId;
    const attempt: Started = { callId, from, contact, campaign, agent: await this.agentOf(campaign, agentId) };
    if (status.state === 'ended') return this.finish(attempt, status.result);
    if (status.state === 'in_progress') return this.accepted(callId, null);
    // Never accepted by the provider: the earlier run died before its request got through.
    if (!DIALABLE_STATUSES.has(campaign.status)) return this.finish(attempt, this.notPlaced('not_placed'));
    this.logger.log(`call ${callId} was never accepted by the provider: placing it now with the same call id`);
    return this.dial(attempt);
  }

  /** Asks the provider to place the call; a refusal (nothing dialled) ends it as a carrier failure. */
  private async dial(attempt: Started): Promise<AttemptReport> {
    const { callId, from, contact, campaign, agent } = attempt;
    if (!from) return this.finish(attempt, this.notPlaced('no_usable_number'));
    const variables = await this.variables(campaign, contact, from, agent?.name ?? null);
    let providerCallId: string;
    try {
      ({ providerCallId } = await this.voice.placeCall({
        callId,
        workspaceId: campaign.workspaceId,
        from,
        to: numberToDial(contact),
        agentId: agent?.id ?? campaign.agentId,
        maxDurationSecs: agent?.maxCallDurationSecs ?? FALLBACK_MAX_CALL_SECS,
        variables,
      }));
    } catch (error) {
      // Anything else (the database unreachable while the router looks up the caller id's carrier,
      // the sandbox's Redis gone) is ours, not the provider's answer, and says nothing about whether
      // the call was placed: the job runs again (waiting out a database outage, 2.7) and its re-run
      // asks the provider (recover). Ending the call here failed a lead that was never tried
      // (decisions.md 16.29).
      if (!isAppError(error)) throw error;
      // A refusal with the contract's code (phone_number_released_upstream, phone_number_not_synced,
      // agent_not_provisioned, provider_error after its retries…) is the disposition (decisions.md 27.7).
      this.logger.warn(`voice provider failed call ${callId}: ${error.message}`);
      return this.finish(attempt, this.notPlaced(error.code));
    }
    return this.accepted(callId, providerCallId);
  }

  /**
   * The provider has the call: the Call moves to DIALING (from then on the live-call sweep asks
   * about it should its events be lost, decisions.md 16.44). Should the database be unreachable
   * now, the job fails and its next run recovers (the provider has the call: nothing is dialled again).
   */
  private async accepted(callId: string, providerCallId: string | null): Promise<AttemptReport> {
    await this.acceptances.submit({ callId, providerCallId });
    return { state: 'placed', providerCallId: providerCallId ?? '' };
  }

  /**
   * Calls the provider accepted at about the same time (decisions.md 16.32): moved to DIALING in
   * one transaction. A group that fails is done call by call, as a lone call is.
   */
  private async acceptGroup(group: Acceptance[]): Promise<Array<PromiseSettledResult<void>>> {
    if (group.length > 1) {
      try {
        await this.callLog.progressMany(group, 'accepted');
        return group.map(() => ({ status: 'fulfilled', value: undefined }));
      } catch (error) {
        this.logger.warn(`${group.length} accepted calls could not be recorded together (${(error as Error).message}): recording each on its own`);
      }
    }
    return Promise.allSettled(
      group.map(async ({ callId, providerCallId }) => {
        await this.callLog.progress(callId, 'accepted', { providerCallId });
      }),
    );
  }

  private finish({ callId, contact, campaign }: Started, result: VoiceCallResult): Promise<AttemptReport> {
    return this.endings.end(callId, result, { contactId: contact.id, attemptSeq: contact.attemptSeq, campaign });
  }

  private agentOf(campaign: ExecutionCampaign, agentId: string | null): Promise<AgentSummary | null> {
    if (!agentId) return Promise.resolve(null);
    return this.agentsById.get(agentId, () => this.agents.find(campaign.workspaceId, agentId));
  }

  /** A call that never reached the network: a carrier failure, retried like one. */
  private notPlaced(disposition: string): VoiceCallResult {
    return {
      outcome: 'carrier_failure',
      providerDisposition: disposition,
      providerCallId: '',
      answeredAt: null,
      endedAt: this.clock.now(),
      durationMs: 0,
      transcript: null,
      recordingUrl: null,
    };
  }

  /** Among the campaign's numbers on enabled carriers, one chosen by a hash of the attempt (spreads the load). */
  private async pickFromNumber(campaign: ExecutionCampaign, contact: AttemptContact): Promise<string | null> {
    const usable = await this.callerIds.get(campaign.id, async () => {
      const ids = await this.execution.phoneNumberIds(campaign.id);
      return (await this.numbers.findByIds(campaign.workspaceId, ids)).filter((n) => n.carrierEnabled);
    });
    if (usable.length === 0) return null;
    const index = createHash('sha256').update(`${contact.id}:${contact.attemptSeq}`).digest().readUInt32BE(0) % usable.length;
    return usable[index].e164;
  }

  /**
   * The agent's variables for this call (decisions.md 16.21): the contact's fields and the campaign's
   * variable mapping, joined by every system variable (times in the campaign's timezone).
   */
  private async variables(campaign: ExecutionCampaign, contact: AttemptContact, from: string, agentName: string | null): Promise<Record<string, string>> {
    const mapped: Record<string, string> = {};
    for (const [variable, column] of Object.entries(campaign.variableMap)) {
      const value = contact.fields[column];
      if (value !== undefined) mapped[variable] = value;
    }
    const workspaceName = await this.workspaceNames.get(campaign.workspaceId, async () => (await this.workspaces.get(campaign.workspaceId)).name);
    return callVariables(
      { ...contact.fields, ...mapped },
      {
        agentName: agentName ?? '',
        callerPhone: from,
        campaignName: campaign.name,
        contactName: calleeName(contact.name, campaign.settings.transliterateCalleeNames),
        contactPhone: numberToDial(contact),
        timezone: campaign.timezone,
        workspaceName,
        now: this.clock.now(),
      },
    );
  }

}
