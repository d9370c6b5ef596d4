import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig, QueueProducer } from '@outreach/platform';
import { DeferredSettlement, DirectEnqueue, DispatchScheduler, FailedAttemptJobs, SettlementQueue } from '../application/engine.ports';
import { DispatchPayload, dispatchTickJobId, EngineJob, EngineQueue, settleJobId, toSettlePayload } from '../application/engine-jobs';

/**
 * Wake-ups as BullMQ jobs. A delayed wake-up's jobId names the campaign and the wake-up instant rounded up
 * to DISPATCH_TICK_MS (real time: it is a BullMQ concern), so however many runs ask for a wake-up
 * around the same instant, one job exists.
 */
@Injectable()
export class BullmqDispatchScheduler extends DispatchScheduler {
  constructor(
    private readonly producer: QueueProducer,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async wakeIn(campaignId: string, delayMs: number): Promise<void> {
    const bucket = this.config.dispatchTickMs;
    const wakeAt = Math.ceil((Date.now() + delayMs) / bucket) * bucket;
    const payload: DispatchPayload = { campaignId };
    await this.producer.add(EngineQueue.Campaigns, EngineJob.Dispatch, payload, dispatchTickJobId(campaignId, wakeAt), {
      delay: Math.max(0, wakeAt - Date.now()),
    });
  }

  async wakeNow(campaignId: string): Promise<void> {
    const payload: DispatchPayload = { campaignId };
    await this.producer.add(EngineQueue.Campaigns, EngineJob.Dispatch, payload, `dispatch-${campaignId}-now-${randomUUID()}`, {
      removeOnComplete: true,
      removeOnFail: true,
    });
  }
}

/** The fast lane: jobs with deterministic ids added in one round trip per queue. */
@Injectable()
export class BullmqDirectEnqueue extends DirectEnqueue {
  constructor(private readonly producer: QueueProducer) {
    super();
  }

  async enqueue(jobs: ReadonlyArray<{ queue: string; name: string; payload: Record<string, unknown>; jobId?: string }>): Promise<void> {
    const byQueue = new Map<string, typeof jobs[number][]>();
    for (const job of jobs) {
      if (!job.jobId) continue; // without a deterministic id the relay's copy could run twice
      byQueue.set(job.queue, [...(byQueue.get(job.queue) ?? []), job]);
    }
    for (const [queue, list] of byQueue) {
      await this.producer.addBulk(queue, list.map((j) => ({ name: j.name, payload: j.payload, jobId: j.jobId! })));
    }
  }
}

/** Deferred settlements as `attempts`/`settle` jobs; the job id makes a second defer of one call a no-op. */
@Injectable()
export class BullmqSettlementQueue extends SettlementQueue {
  constructor(private readonly producer: QueueProducer) {
    super();
  }

  async defer(settlement: DeferredSettlement): Promise<void> {
    await this.producer.add(EngineQueue.Attempts, EngineJob.Settle, toSettlePayload(settlement), settleJobId(settlement.callId));
  }
}

/** Failed `attempts` jobs, retried by id (BullMQ `Job.retry`: back to waiting, its tries counted afresh). */
@Injectable()
export class BullmqFailedAttemptJobs extends FailedAttemptJobs {
  constructor(private readonly producer: QueueProducer) {
    super();
  }

  async retry(jobIds: readonly string[]): Promise<number> {
    const queue = this.producer.queue(EngineQueue.Attempts);
    let retried = 0;
    for (const jobId of jobIds) {
      const job = await queue.getJob(jobId);
      if (!job || !(await job.isFailed())) continue;
      await job.retry('failed');
      retried++;
    }
    return retried;
  }
}
