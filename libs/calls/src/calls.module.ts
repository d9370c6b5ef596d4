import { Module } from '@nestjs/common';
import { workerQueues } from '@outreach/platform';
import { CallLog } from './application/call-log';
import { CallRepository } from './application/calls.ports';
import { SqlCallRepository } from './infrastructure/sql-call.repository';
import { ContactCallReader } from './application/contact-call-reader';
import { SqlContactCallReader } from './infrastructure/queries/sql-contact-call-reader';
// calls helper (reads, analysis, overrides, test calls):
import { AgentsCoreModule } from '@outreach/agents';
import { BillingModule } from '@outreach/billing';
import { CampaignsCoreModule } from '@outreach/campaigns';
import { DncCoreModule } from '@outreach/dnc';
import { TelephonyCoreModule } from '@outreach/telephony';
import { WorkspacesCoreModule } from '@outreach/workspaces';
import { AnalyseCall } from './application/analysis/analyse-call.use-case';
import { CallAnalysedBinding } from './application/analysis/call-analysed';
import { CallAnalyser } from './application/analysis/call-analyser.port';
import { AnalysisSubjects, CallAnalysisStore } from './application/analysis/call-analysis.ports';
import { CallQueries, CallReads } from './application/call-queries';
import { CallsQueue } from './application/calls.ports';
import { OverrideCallMetric } from './application/override-call-metric';
import { StartWebSession } from './application/start-web-session';
import { PlaceTestCall } from './application/place-test-call';
import { CallEventIntake } from './application/call-event-intake';
import { ReceiveVoiceWebhook } from './application/receive-voice-webhook';
import { AnswerInboundCall, TakeInboundCall } from './application/inbound/answer-inbound-call';
import { VoiceWebhooksController } from './http/voice-webhooks.controller';
import { CallsController } from './http/calls.controller';
import { CALL_ANALYSER_PROVIDER } from './infrastructure/analysis/call-analyser.provider';
import { CampaignAnalysisSubjects } from './infrastructure/analysis/campaign-analysis-subjects';
import { CallsProcessor } from './infrastructure/processors/calls.processor';
import { CallsMaintenance } from './infrastructure/processors/calls-maintenance';
import { ResumeAnalyses } from './application/analysis/resume-analyses';
import { SqlCallAnalysisStore, SqlCallQueries } from './infrastructure/queries/sql-call-queries';

/** The call record (campaign attempts and test calls): no controllers, usable by api, worker and cli. */
@Module({
  providers: [CallLog, CallAnalysedBinding, { provide: CallRepository, useClass: SqlCallRepository }, { provide: ContactCallReader, useClass: SqlContactCallReader }],
  exports: [CallLog, CallAnalysedBinding, ContactCallReader],
})
export class CallsCoreModule {}

/**
 * Reads, analysis and metric overrides over the call record (the calls helper's part): the
 * analysis port (sandbox or OpenAI-compatible, per ANALYSIS_PROVIDER) and its use cases, for api,
 * worker and cli. Kept apart from CallsCoreModule so the core stays free of campaigns and agents.
 */
@Module({
  imports: [CallsCoreModule, CampaignsCoreModule, AgentsCoreModule],
  providers: [
    CallReads,
    AnalyseCall,
    ResumeAnalyses,
    OverrideCallMetric,
    CALL_ANALYSER_PROVIDER,
    { provide: CallQueries, useClass: SqlCallQueries },
    { provide: CallAnalysisStore, useClass: SqlCallAnalysisStore },
    { provide: AnalysisSubjects, useClass: CampaignAnalysisSubjects },
  ],
  exports: [CallsCoreModule, CallReads, CallQueries, AnalyseCall, ResumeAnalyses, OverrideCallMetric, CallAnalyser],
})
export class CallsServicesModule {}

/**
 * Test calls and the calls module's part of provider events (CallEventIntake: progress of every
 * call, the ending of test calls), for every process that places calls or receives their events.
 */
@Module({
  imports: [CallsServicesModule, AgentsCoreModule, TelephonyCoreModule, WorkspacesCoreModule, BillingModule, DncCoreModule, CampaignsCoreModule],
  providers: [PlaceTestCall, StartWebSession, CallEventIntake, AnswerInboundCall, TakeInboundCall, ReceiveVoiceWebhook],
  exports: [PlaceTestCall, StartWebSession, CallEventIntake, AnswerInboundCall, TakeInboundCall, ReceiveVoiceWebhook, CallsServicesModule],
})
export class CallEventsModule {}

/** The HTTP face: GET /calls, GET /calls/{id}, GET /calls/{id}/contact, PUT /calls/{id}/metrics/{key}, POST /calls/test, POST /calls/test/web, GET /campaigns/{id}/activity. */
@Module({
  imports: [CallEventsModule, CallsServicesModule, TelephonyCoreModule],
  controllers: [CallsController, VoiceWebhooksController],
  exports: [CallsServicesModule],
})
export class CallsModule {}

/** The worker side of the calls helper's part: the `calls` queue (job `analyse`) and the analysis sweep. */
@Module({
  imports: [CallsServicesModule, CallEventsModule, TelephonyCoreModule, workerQueues(CallsQueue.Calls)],
  providers: [CallsProcessor, CallsMaintenance],
})
export class CallsAnalysisWorkerModule {}
