import { Module } from '@nestjs/common';
import { workerQueues } from '@outreach/platform';
import { AgentsCoreModule } from '@outreach/agents';
import { BillingModule } from '@outreach/billing';
import { CallsCoreModule, CallsServicesModule } from '@outreach/calls';
import { CampaignsCoreModule } from '@outreach/campaigns';
import { MessagingCoreModule } from '@outreach/messaging';
import { DncCoreModule } from '@outreach/dnc';
import { TelephonyCoreModule } from '@outreach/telephony';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { ApplyReplyRules } from './application/apply-reply-rules.use-case';
import { RemessageContact } from './application/remessage-contact.use-case';
import { AttemptSettlement } from './application/attempt-settlement';
import { EngineReplyEvents } from './application/engine-reply-events';
import { DispatchCampaign } from './application/dispatch-campaign.use-case';
import { DirectEnqueue, DispatchScheduler, FailedAttemptJobs, JourneySteps, SettlementQueue, SweepLease } from './application/engine.ports';
import { JourneyStepsBinding } from './infrastructure/journey-steps.binding';
import { EngineMessageEvents } from './application/engine-message-events';
import { MessageAttempt } from './application/message-attempt';
import { CallEndings } from './application/call-endings';
import { EngineCallEvents } from './application/engine-call-events';
import { PollCall } from './application/poll-call.use-case';
import { SweepLiveCalls } from './application/sweep-live-calls.use-case';
import { EngineQueue } from './application/engine-jobs';
import { ExecuteAttempt } from './application/execute-attempt.use-case';
import { ReapStuckAttempts } from './application/reap-stuck-attempts.use-case';
import { SettleDeferredAttempt } from './application/settle-deferred-attempt.use-case';
import { BullmqDirectEnqueue, BullmqDispatchScheduler, BullmqFailedAttemptJobs, BullmqSettlementQueue } from './infrastructure/bullmq-dispatch-scheduler';
import { AttemptsProcessor, CampaignsProcessor, OutreachProcessor } from './infrastructure/engine.processors';
import { EngineMaintenance } from './infrastructure/engine-maintenance';
import { RedisSweepLease } from './infrastructure/redis-sweep-lease';

const useCases = [DispatchCampaign, ExecuteAttempt, MessageAttempt, AttemptSettlement, SettleDeferredAttempt, ReapStuckAttempts, CallEndings, PollCall, SweepLiveCalls, ApplyReplyRules, RemessageContact];

/**
 * The execution engine's use cases (dispatch, attempt, settlement, deferred settlement, reaper), without processors.
 * Needs the worker's platform (QueueProducer) for its wake-ups.
 */
@Module({
  imports: [WorkspacesCoreModule, AgentsCoreModule, BillingModule, DncCoreModule, TelephonyCoreModule, CallsCoreModule, CallsServicesModule, CampaignsCoreModule, MessagingCoreModule],
  providers: [
    ...useCases,
    { provide: DispatchScheduler, useClass: BullmqDispatchScheduler },
    { provide: DirectEnqueue, useClass: BullmqDirectEnqueue },
    { provide: SettlementQueue, useClass: BullmqSettlementQueue },
    { provide: SweepLease, useClass: RedisSweepLease },
    { provide: FailedAttemptJobs, useClass: BullmqFailedAttemptJobs },
    // Journey campaigns: bound by the workflows module (decisions.md 37.12).
    JourneyStepsBinding,
    { provide: JourneySteps, useExisting: JourneyStepsBinding },
    // Subscribes to provider events: campaign calls are settled where the engine runs.
    EngineCallEvents,
    // Subscribes to message reports (after messaging's own intake): a leg settles when its message arrived or failed.
    EngineMessageEvents,
    // Subscribes to message events: replies are judged by outreach rules (decisions.md 34.4).
    EngineReplyEvents,
  ],
  exports: [...useCases, JourneyStepsBinding],
})
export class EngineCoreModule {}

/** The worker side: queues `campaigns` and `attempts` and their processors. */
@Module({
  imports: [
    EngineCoreModule,
    workerQueues(EngineQueue.Campaigns, EngineQueue.Attempts, EngineQueue.Outreach),
  ],
  providers: [CampaignsProcessor, AttemptsProcessor, OutreachProcessor, EngineMaintenance],
  exports: [EngineCoreModule],
})
export class EngineWorkerModule {}
