// Public surface of the execution engine: dispatch, attempts, reaper (decisions.md 16.2, 16.5, 16.9).
export * from './engine.config';
export { EngineCoreModule, EngineWorkerModule } from './engine.module';
export { DispatchCampaign, DispatchReport, DispatchState } from './application/dispatch-campaign.use-case';
export { ExecuteAttempt, AttemptReport } from './application/execute-attempt.use-case';
export { MessageAttempt, MessageAttemptReport, MESSAGE_REPORT_PATIENCE_MS } from './application/message-attempt';
export { nextMessageStep, MessageRetrySettings } from './domain/message-retry-policy';
export { AttemptSettlement, SettledAttempt } from './application/attempt-settlement';
export { NO_PROVIDER_RECORD, ReapStuckAttempts, ReapReport } from './application/reap-stuck-attempts.use-case';
export { SettleDeferredAttempt } from './application/settle-deferred-attempt.use-case';
export { LiveCallSweepReport, SweepLiveCalls } from './application/sweep-live-calls.use-case';
export { DeferredSettlement, DispatchScheduler, JourneyCallEnded, JourneySteps, SettlementQueue, SweepLease } from './application/engine.ports';
export { JourneyStepsBinding } from './infrastructure/journey-steps.binding';
export {
  AttemptPayload,
  attemptJobId,
  DispatchPayload,
  EngineJob,
  EngineQueue,
} from './application/engine-jobs';
export { CampaignsProcessor, AttemptsProcessor } from './infrastructure/engine.processors';
export { EngineMaintenance } from './infrastructure/engine-maintenance';
export { RedisSweepLease } from './infrastructure/redis-sweep-lease';
// The dial window moved to the campaigns domain (lead views read it too); re-exported for existing importers.
export { DialSchedule, dialWindowAt, nextDialOpening } from '@outreach/campaigns';
export { nextStep, RetrySettings } from './domain/retry-policy';
export { freeSlots } from './domain/dispatch-slots';
