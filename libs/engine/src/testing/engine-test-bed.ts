// The engine's use cases built with `new` over in-memory fakes (no Nest, no database, no Redis):
// the real CampaignExecution, CallLog and DoNotCallList services over their modules' fakes.
import { AppConfig, FixedClock } from '@outreach/core';
import { CallLog } from '@outreach/calls';
import { CampaignExecution } from '@outreach/campaigns';
import { DoNotCallList } from '@outreach/dnc';
import { InMemoryAgentDirectory } from '../../../agents/src/testing';
import { FixedCreditStatus, FixedTariffs, FixedWalletBalance, RecordedCampaignSpend, RecordingWalletDebits } from '../../../billing/src/testing';
import { InMemoryCallRepository } from '../../../calls/src/testing';
import {
  aCampaign,
  InMemoryCampaignExecutionRepository,
  InMemoryCampaignPhoneNumbers,
  InMemoryCampaignRepository,
  InMemoryContactRepository,
  InMemoryContactTimelineStore,
  inMemoryTimeline,
} from '../../../campaigns/src/testing';
import { InMemoryDncRepository } from '../../../dnc/src/testing';
import { jobsRollback, RecordingOutbox, RollbackUnitOfWork } from '../../../platform/src/testing';
import { inMemoryPhoneNumberDirectory, ScriptedVoiceProvider } from '../../../telephony/src/testing';
import { StubWorkspaceAdministration } from '../../../workspaces/src/testing';
import { AttemptSettlement } from '../application/attempt-settlement';
import { DispatchCampaign } from '../application/dispatch-campaign.use-case';
import { ExecuteAttempt } from '../application/execute-attempt.use-case';
import { MessageAttempt } from '../application/message-attempt';
import type { MessageLegs } from '@outreach/messaging';
import { ReapStuckAttempts } from '../application/reap-stuck-attempts.use-case';
import { SettleDeferredAttempt } from '../application/settle-deferred-attempt.use-case';
import { FixedSweepLease, RecordingDirectEnqueue, RecordingDispatchScheduler, RecordingFailedAttemptJobs, RecordingSettlementQueue } from './recording-engine-ports';
import { CallEndings } from '../application/call-endings';
import { EngineCallEvents } from '../application/engine-call-events';
import { PollCall } from '../application/poll-call.use-case';
import { SweepLiveCalls } from '../application/sweep-live-calls.use-case';
import { JourneyStepsBinding } from '../infrastructure/journey-steps.binding';

/** A Wednesday, 10:00 UTC: inside the default 09:00–18:00 window on every dial day. */
export const ENGINE_NOW = new Date('2026-11-18T10:00:00Z');
export const ENGINE_WS = 'ws-engine';
export const ENGINE_AGENT = 'agent-engine';
export const ENGINE_NUMBER = '+14155550100';

type CampaignInput = Parameters<typeof aCampaign>[0];

/**
 * Every fake the engine talks to, one workspace set up to dial (concurrency 10, a positive
 * balance, an ACTIVE agent with 300 s calls, one number on an enabled carrier), and the four use cases.
 */
export function engineTestBed(options: { now?: Date; dispatchTickMs?: number; reaperGraceSeconds?: number; groupMax?: number; groupsInFlight?: number } = {}) {
  const clock = new FixedClock(options.now ?? ENGINE_NOW);
  const contacts = new InMemoryContactRepository(() => clock.now());
  const campaigns = new InMemoryCampaignRepository(contacts);
  const attached = new InMemoryCampaignPhoneNumbers();
  const executionRepo = new InMemoryCampaignExecutionRepository(campaigns, contacts);
  const outbox = new RecordingOutbox();
  const calls = new InMemoryCallRepository();
  const timelineStore = new InMemoryContactTimelineStore();
  const uow = new RollbackUnitOfWork([campaigns, contacts, attached, executionRepo, calls, timelineStore, jobsRollback(outbox)]);
  const execution = new CampaignExecution(executionRepo, campaigns, attached, uow, clock, outbox, contacts);
  const callLog = new CallLog(calls, uow, clock);
  const debits = new RecordingWalletDebits();
  const tariffs = new FixedTariffs({ voiceMinuteMinor: 10, messageMinor: 1 });
  const credit = new FixedCreditStatus();
  const wallet = new FixedWalletBalance();
  const workspaces = new StubWorkspaceAdministration();
  const agents = new InMemoryAgentDirectory();
  const dncEntries = new InMemoryDncRepository();
  const dnc = new DoNotCallList(dncEntries, clock);
  const phones = inMemoryPhoneNumberDirectory();
  const voice = new ScriptedVoiceProvider();
  const scheduler = new RecordingDispatchScheduler();
  const direct = new RecordingDirectEnqueue();
  const settlements = new RecordingSettlementQueue();
  const config = {
    dispatchTickMs: options.dispatchTickMs ?? 2000,
    reaperGraceSeconds: options.reaperGraceSeconds ?? 120,
    callPollIntervalMs: 15_000,
    engineGroupMax: options.groupMax ?? 100,
    engineGroupsInFlight: options.groupsInFlight ?? 2,
  } as AppConfig;

  const timeline = inMemoryTimeline({ store: timelineStore, uow, clock });
  const spend = new RecordedCampaignSpend(debits);
  const settlement = new AttemptSettlement(execution, callLog, debits, tariffs, credit, outbox, scheduler, uow, clock, timeline, phones.directory, new JourneyStepsBinding());
  const dispatch = new DispatchCampaign(execution, credit, wallet, workspaces, agents, phones.directory, dnc, outbox, uow, clock, scheduler, direct, config, spend, tariffs, timeline, new JourneyStepsBinding());
  const endings = new CallEndings(execution, callLog, settlement, settlements, uow, config);
  // Message legs have their e2e tests (test/engine/message-legs.e2e-spec.ts); the bed runs voice legs only.
  const noMessageLegs = { repliedSince: async () => false } as unknown as MessageLegs;
  const attempt = new ExecuteAttempt(execution, callLog, voice, phones.directory, agents, workspaces, dnc, endings, outbox, uow, clock, config, timeline, {} as MessageAttempt, noMessageLegs, new JourneyStepsBinding());
  const poll = new PollCall(callLog, voice, endings, clock);
  const lease = new FixedSweepLease();
  const liveCalls = new SweepLiveCalls(execution, callLog, poll, lease, config, clock);
  const callEvents = new EngineCallEvents(voice.events, endings);
  callEvents.onModuleInit(); // the scripted provider's endings are settled as the worker settles them
  const settleDeferred = new SettleDeferredAttempt(execution, settlement);
  const failedJobs = new RecordingFailedAttemptJobs();
  const reaper = new ReapStuckAttempts(execution, settlement, voice, scheduler, outbox, uow, clock, {} as MessageAttempt, failedJobs);

  workspaces.add({ id: ENGINE_WS, concurrency: 10 });
  wallet.balances.set(ENGINE_WS, 10_000);
  agents.add({ id: ENGINE_AGENT, workspaceId: ENGINE_WS, name: 'Ava', maxCallDurationSecs: 300 });
  phones.numbers.add({ id: 'number-1', workspaceId: ENGINE_WS, e164: ENGINE_NUMBER });

  /**
   * Stores a campaign (default: RUNNING VOICE/CSV in ENGINE_WS, the bed's agent, its number attached,
   * recipient hours off — a test about them turns them on in `draft`).
   */
  function addCampaign(input: Partial<CampaignInput> & { id: string }) {
    const { draft, ...rest } = input;
    const campaign = campaigns.seed(
      aCampaign({
        workspaceId: ENGINE_WS,
        status: 'RUNNING',
        now: clock.now(),
        ...rest,
        draft: { agentId: ENGINE_AGENT, recipientHours: 'off', ...draft },
      }),
    );
    void attached.attach(campaign.id, 'number-1');
    return campaign.toProps();
  }

  return {
    clock,
    contacts,
    campaigns,
    attached,
    executionRepo,
    execution,
    outbox,
    uow,
    calls,
    callLog,
    debits,
    tariffs,
    timeline,
    spend,
    credit,
    wallet,
    workspaces,
    agents,
    dncEntries,
    dnc,
    phones,
    voice,
    scheduler,
    direct,
    settlements,
    config,
    settlement,
    lease,
    failedJobs,
    endings,
    poll,
    liveCalls,
    callEvents,
    dispatch,
    attempt,
    settleDeferred,
    reaper,
    addCampaign,
  };
}

export type EngineTestBed = ReturnType<typeof engineTestBed>;
