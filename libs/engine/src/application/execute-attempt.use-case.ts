import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger } from '@nestjs/common';
import { AgentDirectory, AgentSummary } from '@outreach/agents';
import { CallLog } from '@outreach/calls';
import { AttemptContact, CampaignExecution, ExecutionCampaign } from '@outreach/campaigns';
import { DoNotCallList } from '@outreach/dnc';
import { leadFinalJob } from '@outreach/results';
import { Clock, isAppError, Outbox, UnitOfWork } from '@outreach/core';
import { PhoneNumberDirectory, PhoneNumberView, VoiceCallResult, VoiceProvider } from '@outreach/telephony';
import { DateTime } from 'luxon';
import { AttemptSettlement, SettledAttempt } from './attempt-settlement';
import { dispatchJob } from './engine-jobs';
import { ShortLivedCache } from './short-lived-cache';

const FALLBACK_MAX_CALL_SECS = 600;
/** Claimed attempts still dial while the campaign is paused or out of credit: in-flight attempts finish. */
const DIALABLE_STATUSES = new Set(['RUNNING', 'PAUSED', 'CREDIT_EXHAUSTED']);
/** How long a campaign's caller ids and agent are reused between attempts (number/carrier changes apply within it). */
const LOOKUP_TTL_MS = 1000;
/** Settling a placed call is retried this often (back-off 100 ms, doubling: about 3 s in all). */
const SETTLE_TRIES = 6;
const SETTLE_BACKOFF_MS = 100;

export type AttemptReport =
  | { state: 'stale' | 'already_started' | 'released' | 'do_not_call' }
  | { state: 'settled'; settled: SettledAttempt };

/**
 * One attempt (job attempts/attempt): re-checks the contact and campaign in the database, checks
 * the do-not-call list, picks a caller id, records the Call as started (once: a replayed job finds
 * it and leaves the attempt to the reaper, so nobody is dialled twice), places the call through
 * the VoiceProvider port, then settles the outcome in one transaction (AttemptSettlement).
 */
@Injectable()
export class ExecuteAttempt {
  private readonly logger = new Logger('ExecuteAttempt');
  private readonly callerIds = new ShortLivedCache<PhoneNumberView[]>(LOOKUP_TTL_MS);
  private readonly agentsById = new ShortLivedCache<AgentSummary | null>(LOOKUP_TTL_MS);

  constructor(
    private readonly execution: CampaignExecution,
    private readonly callLog: CallLog,
    private readonly voice: VoiceProvider,
    private readonly numbers: PhoneNumberDirectory,
    private readonly agents: AgentDirectory,
    private readonly dnc: DoNotCallList,
    private readonly settlement: AttemptSettlement,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(contactId: string, attemptSeq: number): Promise<AttemptReport> {
    const started = await this.uow.run(async () => {
      const contact = await this.execution.lockContact(contactId);
      if (!contact || contact.status !== 'IN_PROGRESS' || contact.attemptSeq !== attemptSeq) return { state: 'stale' as const };
      if (contact.currentCallId) return { state: 'already_started' as const };
      const campaign = await this.execution.campaign(contact.campaignId);
      if (!campaign || !DIALABLE_STATUSES.has(campaign.status)) {
        await this.execution.release(contactId, attemptSeq);
        return { state: 'released' as const };
      }
      if (await this.dnc.isBlocked(campaign.workspaceId, contact.phone)) {
        await this.execution.markDoNotCall([{ id: contactId, attemptSeq }]);
        await this.outbox.enqueue(dispatchJob(campaign.id), ...(campaign.source === 'API' ? [leadFinalJob(contactId)] : []));
        return { state: 'do_not_call' as const };
      }
      const from = await this.pickFromNumber(campaign, contact);
      const agentId = campaign.agentId;
      const agent = agentId ? await this.agentsById.get(agentId, () => this.agents.find(campaign.workspaceId, agentId)) : null;
      const { callId } = await this.callLog.start({
        workspaceId: campaign.workspaceId,
        campaignId: campaign.id,
        contactId,
        agentId: campaign.agentId,
        fromNumber: from,
        toNumber: contact.phone,
        attemptNumber: contact.attempts,
        kind: 'campaign',
      });
      await this.execution.markCallStarted(contactId, attemptSeq, callId);
      return { state: 'started' as const, callId, from, contact, campaign, agent };
    });
    if (started.state !== 'started') return started;

    const { callId, from, contact, campaign, agent } = started;
    let result: VoiceCallResult;
    if (!from) {
      result = this.notPlaced('no_usable_number');
    } else {
      try {
        result = await this.voice.placeCall({
          callId,
          from,
          to: contact.phone,
          agentId: campaign.agentId,
          maxDurationSecs: agent?.maxCallDurationSecs ?? FALLBACK_MAX_CALL_SECS,
          variables: this.variables(campaign, contact, from, agent?.name ?? null),
        });
      } catch (error) {
        this.logger.warn(`voice provider failed call ${callId}: ${(error as Error).message}`);
        result = this.notPlaced('provider_error');
      }
    }
    const settled = await this.settleWithRetries({ contactId, attemptSeq, callId, campaign, result });
    return { state: 'settled', settled };
  }

  /**
   * The call has happened and its result exists only in this process: a transient database
   * failure (no free connection, deadlock, a blip) must not lose it, because a replayed job finds
   * the call started and leaves it to the reaper, which can only mark it failed. Settling is
   * idempotent, so it is simply tried again, with back-off, before the job gives up.
   */
  private async settleWithRetries(input: Parameters<AttemptSettlement['settle']>[0]): Promise<SettledAttempt> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.settlement.settle(input);
      } catch (error) {
        if (isAppError(error) || attempt >= SETTLE_TRIES) throw error;
        this.logger.warn(`settling call ${input.callId} failed (try ${attempt} of ${SETTLE_TRIES}): ${(error as Error).message}`);
        await sleep(SETTLE_BACKOFF_MS * 2 ** (attempt - 1));
      }
    }
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

  private variables(campaign: ExecutionCampaign, contact: AttemptContact, from: string, agentName: string | null): Record<string, string> {
    const local = DateTime.fromJSDate(this.clock.now(), { zone: campaign.timezone });
    const mapped: Record<string, string> = {};
    for (const [variable, column] of Object.entries(campaign.variableMap)) {
      const value = contact.fields[column];
      if (value !== undefined) mapped[variable] = value;
    }
    return {
      ...contact.fields,
      ...mapped,
      agent_name: agentName ?? '',
      caller_phone: from,
      contact_name: contact.name ?? '',
      contact_phone: contact.phone,
      timezone: campaign.timezone,
      current_date: local.toISODate() ?? '',
      current_day: local.toFormat('cccc'),
      current_time: local.toFormat('HH:mm'),
    };
  }
}
