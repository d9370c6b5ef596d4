import { Processor } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { AnalyseCall, AnalysisRun } from '../../application/analysis/analyse-call.use-case';
import { CallAnalysedBinding } from '../../application/analysis/call-analysed';
import { AnalyseCallPayload } from '../../application/analysis/call-analysis.ports';
import { CallsJob, CallsQueue } from '../../application/calls.ports';
import { ProviderEventPayload } from '../../application/receive-voice-webhook';
import { fromWire, VoiceCallEvents } from '@outreach/telephony';
import { TakeInboundCall, TakeInboundPayload } from '../../application/inbound/answer-inbound-call';

/**
 * The `calls` queue. `provider-event` hands a provider's webhook event to this process's
 * VoiceCallEvents (decisions.md 16.24). `analyse` runs AnalyseCall (idempotent: a DONE or SKIPPED call is left
 * alone). A transient provider failure (timeout, unreachable, 429, 5xx) is stored as FAILED and
 * the job is failed so BullMQ retries it with back-off; the last attempt leaves it FAILED.
 */
@Processor(CallsQueue.Calls)
export class CallsProcessor extends QueueWorkerHost {
  private readonly logger = new Logger('CallsProcessor');

  constructor(
    private readonly analyse: AnalyseCall,
    private readonly events: VoiceCallEvents,
    private readonly takeInbound: TakeInboundCall,
    private readonly analysedBinding: CallAnalysedBinding,
  ) {
    super(CallsQueue.Calls);
  }

  protected async handle(job: Job): Promise<AnalysisRun['outcome'] | 'delivered' | 'taken'> {
    switch (job.name as CallsJob) {
      case CallsJob.Analyse:
        return this.analyseCall(job);
      case CallsJob.ProviderEvent:
        // Every subscriber of this process applies it (CallEventIntake, EngineCallEvents); a failure retries the job.
        await this.events.deliver(fromWire((job.data as ProviderEventPayload).event));
        return 'delivered';
      case CallsJob.TakeInbound:
        await this.takeInbound.execute(job.data as TakeInboundPayload);
        return 'taken';
      default:
        throw new Error(`calls queue: no handler for job ${job.name}`);
    }
  }

  private async analyseCall(job: Job): Promise<AnalysisRun['outcome']> {
    const { callId } = job.data as AnalyseCallPayload;
    const run = await this.analyse.run(callId);
    if (run.outcome === 'failed') {
      const attempts = job.opts.attempts ?? 1;
      const retry = run.error.retryable && job.attemptsMade + 1 < attempts;
      this.logger.warn(
        { callId, reason: run.error.reason, upstreamStatus: run.error.upstreamStatus, attempt: job.attemptsMade + 1, retry },
        'call analysis failed',
      );
      if (retry) throw run.error;
    }
    // The analysis is final (a replayed job answers `already`: the moment is handed on again, idempotently).
    if (run.outcome !== 'missing' && run.outcome !== 'not_finished') {
      const status = run.call.analysisStatus;
      if (status === 'DONE' || status === 'SKIPPED' || status === 'FAILED') {
        await this.analysedBinding.analysed({ callId, contactId: run.call.contactId, analysisStatus: status });
      }
    }
    return run.outcome;
  }
}
