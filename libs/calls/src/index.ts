// Public surface of the calls module: what other modules and apps may use.
import { defineMigrations } from '@outreach/platform';
export * from './calls.errors';
export * from './calls.config';
import { Calls1763700004000 } from './infrastructure/migrations/1763700004000-calls';
import { CallMetricOverrides1763700005500 } from './infrastructure/migrations/1763700005500-call-metric-overrides';
import { CallLifecycle1763700009200 } from './infrastructure/migrations/1763700009200-call-lifecycle';
import { CallProviderAnalysis1763700010300 } from './infrastructure/migrations/1763700010300-call-provider-analysis';
import { InboundCalls1763700011320 } from './infrastructure/migrations/1763700011320-inbound-calls';
import { CallAnalysisPending1763700011800 } from './infrastructure/migrations/1763700011800-call-analysis-pending';
import { RecentOutcomes1763700012100 } from './infrastructure/migrations/1763700012100-recent-outcomes';

export { CallsCoreModule } from './calls.module';
export { ContactCallReader, ContactFinalCall } from './application/contact-call-reader';
export { CallLog, StartCallInput, toCallView } from './application/call-log';
export { CallsJob, CallsQueue, CallView } from './application/calls.ports';
export { ANALYSIS_STATUSES, AnalysisStatus, CALL_KINDS, CALL_STATUSES, CallKind, CallProgress, CallStatus, LIVE_CALL_STATUSES } from './domain/call';
// calls helper: reads, analysis, metric overrides, test calls
export { CallsServicesModule, CallsModule, CallEventsModule, CallsAnalysisWorkerModule } from './calls.module';
export { CallEventIntake, CallEventReport } from './application/call-event-intake';
export { CallReads, CallQueries, CallRecord, MetricOverride, CAMPAIGN_ACTIVITY_WINDOW } from './application/call-queries';
export { AnalyseCall, AnalysisRun } from './application/analysis/analyse-call.use-case';
export { analyseCallJob, AnalyseCallPayload } from './application/analysis/call-analysis.ports';
export {
  AnalysisInput,
  AnalysisProviderError,
  AnalysisResult,
  CallAnalyser,
} from './application/analysis/call-analyser.port';
export { OpenAiCallAnalyser, OpenAiAnalyserOptions } from './infrastructure/analysis/openai-call-analyser';
export { SandboxCallAnalyser } from './infrastructure/analysis/sandbox-call-analyser';
export { OverrideCallMetric, OverrideCallMetricInput } from './application/override-call-metric';
export { PlaceTestCall } from './application/place-test-call';
export { AnswerInboundCall, DECLINED_DISPOSITION, InboundAnswer, TakeInboundCall } from './application/inbound/answer-inbound-call';
export { ReceiveVoiceWebhook } from './application/receive-voice-webhook';
export const CALLS_MIGRATIONS = defineMigrations('calls', [Calls1763700004000, CallMetricOverrides1763700005500, CallLifecycle1763700009200, CallProviderAnalysis1763700010300, InboundCalls1763700011320, CallAnalysisPending1763700011800, RecentOutcomes1763700012100]);
export { CallAnalysed, CallAnalysedBinding } from './application/analysis/call-analysed';
export type { CallAnalysedEvent } from './application/analysis/call-analysed';
