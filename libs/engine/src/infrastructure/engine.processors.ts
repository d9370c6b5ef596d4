import { Processor } from '@nestjs/bullmq';
import { OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig, QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { DispatchCampaign } from '../application/dispatch-campaign.use-case';
import { RemessagePayload } from '@outreach/campaigns';
import { ApplyReplyRules } from '../application/apply-reply-rules.use-case';
import { RemessageContact } from '../application/remessage-contact.use-case';
import {
  AttemptPayload,
  DispatchPayload,
  EngineJob,
  EngineQueue,
  fromSettlePayload,
  MessageBatchPayload,
  PollPayload,
  ReplyRulesPayload,
  SettlePayload,
} from '../application/engine-jobs';
import { PollCall } from '../application/poll-call.use-case';
import { ExecuteAttempt } from '../application/execute-attempt.use-case';
import { MessageAttempt } from '../application/message-attempt';
import { SettleDeferredAttempt } from '../application/settle-deferred-attempt.use-case';

/** Dispatch runs of different campaigns in parallel per process (one workspace's runs serialise in Postgres). */
const DISPATCH_CONCURRENCY = 4;
/** Queue `campaigns`: dispatch runs. Handlers only call use cases. */
@Processor(EngineQueue.Campaigns)
export class CampaignsProcessor extends QueueWorkerHost implements OnApplicationBootstrap {
  constructor(private readonly dispatch: DispatchCampaign) {
    super(EngineQueue.Campaigns);
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = DISPATCH_CONCURRENCY;
  }

  protected async handle(job: Job): Promise<unknown> {
    switch (job.name as EngineJob) {
      case EngineJob.Dispatch:
        return this.dispatch.execute((job.data as DispatchPayload).campaignId);
      default:
        throw new Error(`campaigns queue: no handler for job ${job.name}`);
    }
  }
}

/**
 * An attempt job's lock is its lease (decisions.md 16.20): renewed every 5 s while the worker holds
 * the job (the provider is being asked to place the call); a worker that died stops renewing, and
 * within one lease plus one stalled check (10 + 5 s) another worker takes the job again, asks the
 * provider what became of the call (ExecuteAttempt.recover) and settles it, leaves it to its events
 * (and the live-call sweep), or places it with the same call id. BullMQ's defaults (30 s, checked every 30 s) let a
 * crash hold lines for up to a minute.
 */
export const ATTEMPT_LEASE = { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 3 } as const;

/**
 * Queue `attempts`: `attempt` jobs place one call each (or send one message leg); `message-batch`
 * jobs send the message legs claimed together (decisions.md 47.1); (ATTEMPT_CONCURRENCY placing requests at once
 * per process; the job ends when the provider accepted the call); `poll` jobs, written only by
 * versions before the live-call sweep, ask the provider about one call once (decisions.md 16.44); `message-check` jobs, written
 * only by versions before 47.17, settle a message leg whose report is overdue; `settle` jobs store an ended call's outcome
 * that could not be stored when it ended (decisions.md 16.18).
 */
@Processor(EngineQueue.Attempts, ATTEMPT_LEASE)
export class AttemptsProcessor extends QueueWorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly attempt: ExecuteAttempt,
    private readonly settle: SettleDeferredAttempt,
    private readonly poll: PollCall,
    private readonly messages: MessageAttempt,
    private readonly config: AppConfig,
  ) {
    super(EngineQueue.Attempts);
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.attemptConcurrency;
  }

  protected async handle(job: Job): Promise<unknown> {
    switch (job.name as EngineJob) {
      case EngineJob.Attempt: {
        const { contactId, attemptSeq } = job.data as AttemptPayload;
        const report = await this.attempt.execute(contactId, attemptSeq);
        return { state: report.state };
      }
      case EngineJob.MessageBatch: {
        const reports = await this.attempt.executeMessages((job.data as MessageBatchPayload).attempts);
        return { states: reports.map((report) => report.state) };
      }
      case EngineJob.Poll: {
        const report = await this.poll.execute((job.data as PollPayload).callId);
        return { state: report.state };
      }
      case EngineJob.MessageCheck: {
        const { contactId, attemptSeq } = job.data as AttemptPayload;
        const report = await this.messages.execute(contactId, attemptSeq, { final: true });
        return { state: report.state };
      }
      case EngineJob.Settle: {
        const report = await this.settle.execute(fromSettlePayload(job.data as SettlePayload));
        return { state: report.state };
      }
      default:
        throw new Error(`attempts queue: no handler for job ${job.name}`);
    }
  }
}

/**
 * Queue `outreach` (decisions.md 34): replies judged by their campaigns' outreach rules, and
 * remessages. The analysis port and the message provider may take seconds: their own queue keeps
 * dispatch runs free.
 */
@Processor(EngineQueue.Outreach)
export class OutreachProcessor extends QueueWorkerHost {
  constructor(
    private readonly rules: ApplyReplyRules,
    private readonly remessage: RemessageContact,
  ) {
    super(EngineQueue.Outreach);
  }

  protected async handle(job: Job): Promise<unknown> {
    switch (job.name as EngineJob) {
      case EngineJob.ReplyRules: {
        const report = await this.rules.execute(job.data as ReplyRulesPayload);
        return { state: report.state, handedOff: report.handedOff.length };
      }
      case EngineJob.RemessageContact:
        return this.remessage.execute(job.data as RemessagePayload);
      default:
        throw new Error(`outreach queue: no handler for job ${job.name}`);
    }
  }
}
