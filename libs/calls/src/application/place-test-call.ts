import { Injectable, Logger } from '@nestjs/common';
import { AgentDirectory, callVariables } from '@outreach/agents';
import { CreditStatus, startedMinutes, Tariffs, WalletDebits } from '@outreach/billing';
import { DoNotCallList } from '@outreach/dnc';
import { AppConfig, AppError, Clock, ErrorCode, isAppError, normalisePhone, Outbox, UnitOfWork } from '@outreach/core';
import { isAnswered, PhoneNumberDirectory, VoiceCallResult, VoiceProvider } from '@outreach/telephony';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { analyseCallJob } from './analysis/call-analysis.ports';
import { CallLog } from './call-log';
import { CallQueries, CallRecord } from './call-queries';

export interface PlaceTestCallInput {
  workspaceId: string;
  agentId: string;
  toNumber: string;
  fromPhoneNumberId?: string;
  variables?: Record<string, string>;
  /** The request's Idempotency-Key: stored on the call (one call per key and workspace, ever). */
  idempotencyKey: string;
}

/**
 * POST /calls/test: one call from an agent to a number, placed synchronously through the
 * VoiceProvider (the sandbox answers at once), recorded as a Call of kind `test` and billed to
 * the wallet (debit kind test_call, per started minute of an answered call).
 *
 * Checks, in order (decisions.md 22.4, 1.9: validation → lookups → state guards → business rules); the
 * statuses are the route's (calls.controller.ts), the codes are raised here:
 *   toNumber not a valid number written with its calling code → 400 invalid_phone;
 *   agent unknown (or another workspace's) → 404 agent_not_found;
 *   fromPhoneNumberId not a number of the workspace → 404 phone_number_not_found
 *     (its carrier switched off for the workspace → 400 phone_number_not_in_workspace);
 *   agent archived → 400 agent_archived; agent PROVISIONING → 409 agent_not_provisioned;
 *   workspace not ACTIVE → 402 workspace_not_active; activity frozen → 402 activity_frozen;
 *   no fromPhoneNumberId and no SANDBOX_FROM_NUMBER → 500 sandbox_from_number_not_configured;
 *   SANDBOX_FROM_NUMBER registered as a workspace's own number → 503 sandbox_from_number_unavailable;
 *   destination on the do-not-call list → 409 do_not_call;
 *   wallet ≤ 0 and no active trial → 402 insufficient_credits;
 * then the provider (decisions.md 27.7): the caller id's carrier refuses it → 409
 * phone_number_released_upstream / phone_number_not_synced / agent_not_provisioned, 400
 * phone_number_not_in_workspace / invalid_phone; the provider failing (after its retries) → 502
 * provider_error with upstreamStatus. A refusal discards the QUEUED call: nothing is recorded or
 * billed, and a retry with the same Idempotency-Key can place it.
 * Idempotency (replay, 409 idempotency_key_reused / idempotency_in_progress) is the route's
 * @Idempotent(); the key is also stored on the call, so a key whose idempotency record has
 * expired still cannot place a second call (409 idempotency_key_reused).
 */
/** What a real provider's refusal of a test call answers (the call is discarded, decisions.md 27.7). */
const PROVIDER_REFUSALS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'provider_error',
  'phone_number_released_upstream',
  'phone_number_not_synced',
  'phone_number_not_in_workspace',
  'agent_not_provisioned',
  'invalid_phone',
]);

@Injectable()
export class PlaceTestCall {
  private readonly logger = new Logger('PlaceTestCall');

  constructor(
    private readonly agents: AgentDirectory,
    private readonly numbers: PhoneNumberDirectory,
    private readonly workspaces: WorkspaceAdministration,
    private readonly dnc: DoNotCallList,
    private readonly credits: CreditStatus,
    private readonly tariffs: Tariffs,
    private readonly debits: WalletDebits,
    private readonly voice: VoiceProvider,
    private readonly callLog: CallLog,
    private readonly queries: CallQueries,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async execute(input: PlaceTestCallInput): Promise<CallRecord> {
    const { workspaceId } = input;
    const to = normalisePhone(input.toNumber);
    if (!to) {
      throw new AppError('invalid_phone', { message: 'toNumber must be a valid phone number with its calling code, E.164 preferred (+14155550123)' });
    }

    const agent = await this.agents.find(workspaceId, input.agentId);
    if (!agent) throw new AppError('agent_not_found', { message: `no agent ${input.agentId}` });

    let from: string | null = null;
    if (input.fromPhoneNumberId !== undefined) {
      const [number] = await this.numbers.findByIds(workspaceId, [input.fromPhoneNumberId]);
      if (!number) throw new AppError('phone_number_not_found', { message: `no phone number ${input.fromPhoneNumberId}` });
      if (!number.carrierEnabled) {
        throw new AppError('phone_number_not_in_workspace', { message: `the carrier ${number.carrier} of ${number.e164} is disabled for this workspace` });
      }
      from = number.e164;
    }

    if (agent.status === 'archived') throw new AppError('agent_archived');
    if (agent.status !== 'ACTIVE') throw new AppError('agent_not_provisioned', { message: `the agent is ${agent.status}` });

    const workspace = await this.workspaces.get(workspaceId);
    if (workspace.status !== 'ACTIVE') throw new AppError('workspace_not_active', { message: `the workspace is ${workspace.status}` });
    if (workspace.activityFrozen) throw new AppError('activity_frozen');

    if (from === null) {
      if (!this.config.sandboxFromNumber) {
        throw new AppError('sandbox_from_number_not_configured', {
          message: 'Pass fromPhoneNumberId: the operator has not configured a sandbox caller id (SANDBOX_FROM_NUMBER)',
        });
      }
      from = this.config.sandboxFromNumber;
      // The shared number is no longer shared once a workspace registered it as its own (numbers are
      // unique across the service; the router would send its calls through that workspace's carrier,
      // decisions.md 27.1): unavailable until the operator frees it or sets another (decisions.md 36.7).
      if (await this.numbers.findAnyByE164(from)) {
        throw new AppError('sandbox_from_number_unavailable', { message: 'the shared test number is registered to a workspace; pass fromPhoneNumberId' });
      }
    }

    if (await this.dnc.isBlocked(workspaceId, to)) throw new AppError('do_not_call', { message: `${to} is on the do-not-call list` });
    if (!(await this.credits.canSpend(workspaceId, this.clock.now()))) throw new AppError('insufficient_credits');

    const { callId } = await this.callLog.start({
      workspaceId,
      campaignId: null,
      contactId: null,
      agentId: agent.id,
      fromNumber: from,
      toNumber: to,
      attemptNumber: 1,
      kind: 'test',
      idempotencyKey: input.idempotencyKey,
    });
    // The system variables join the caller's (decisions.md 16.21): a test call has no campaign (campaign_name
    // empty, times in UTC) and no contact (contact_name is the caller's own variable when given).
    const variables = callVariables(input.variables ?? {}, {
      agentName: agent.name,
      callerPhone: from,
      campaignName: '',
      contactName: input.variables?.contact_name ?? '',
      contactPhone: to,
      timezone: 'UTC',
      workspaceName: workspace.name,
      now: this.clock.now(),
    });
    // Returns once the provider accepted the call (DIALING); its ending arrives as an event (end()).
    try {
      const placed = await this.voice.placeCall({ callId, workspaceId, from, to, agentId: agent.id, maxDurationSecs: agent.maxCallDurationSecs, variables });
      await this.callLog.progress(callId, 'accepted', { providerCallId: placed.providerCallId });
    } catch (error) {
      if (isAppError(error) && PROVIDER_REFUSALS.has(error.code)) {
        await this.callLog.discard(callId);
        throw error;
      }
      // The provider could not take the call at all: it ends as a carrier failure (not billed),
      // so the call never stays live and the client sees what happened.
      this.logger.warn({ err: String(error), callId }, 'voice provider could not place the test call');
      await this.end(callId, {
        outcome: 'carrier_failure',
        providerDisposition: 'provider_error',
        providerCallId: '',
        answeredAt: null,
        endedAt: this.clock.now(),
        durationMs: 0,
        transcript: null,
        recordingUrl: null,
      });
    }

    const recorded = await this.queries.findById(workspaceId, callId);
    return recorded!;
  }

  /**
   * A test call ended (the provider's event, or the refusal above): the ending, its debit and the
   * analysis job commit together. Idempotent: a call that had ended already changes nothing.
   */
  async end(callId: string, result: VoiceCallResult): Promise<void> {
    await this.uow.run(async () => {
      const { call, finishedNow } = await this.callLog.record(callId, result);
      if (!finishedNow) return;
      if (isAnswered(result.outcome)) {
        const amountMinor = await this.tariffs.voiceCostMinor(call.workspaceId, result.durationMs);
        await this.debits.debit({
          workspaceId: call.workspaceId,
          amountMinor,
          kind: 'test_call',
          reference: callId,
          description: `Test call to ${call.toNumber} (${startedMinutes(result.durationMs)} started min)`,
        });
      }
      if (call.analysisStatus === 'PENDING') await this.outbox.enqueue(analyseCallJob(callId));
    });
  }
}
