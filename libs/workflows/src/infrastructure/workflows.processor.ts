import { Processor } from '@nestjs/bullmq';
import { OnApplicationBootstrap } from '@nestjs/common';
import { QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { JourneyRuns } from '../application/journey-runs';
import { StepPayload, WorkflowJob, WorkflowQueue } from '../application/workflow-jobs';

/** Step jobs of different runs side by side per process (one run's steps serialise on its row lock). */
const STEP_CONCURRENCY = 16;

/**
 * Queue `workflows`: `step` jobs. Handlers only call use cases. A short lease (as the engine's
 * attempts and messaging's jobs, decisions.md 37.17): the step jobs of a worker that died are taken
 * up again within seconds, not after BullMQ's default 30 s stalled-job check (a job that runs
 * longer keeps its lock: BullMQ renews it while the job runs).
 */
@Processor(WorkflowQueue.Workflows, { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 3 })
export class WorkflowsProcessor extends QueueWorkerHost implements OnApplicationBootstrap {
  constructor(private readonly runs: JourneyRuns) {
    super(WorkflowQueue.Workflows);
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = STEP_CONCURRENCY;
  }

  protected async handle(job: Job): Promise<unknown> {
    switch (job.name as WorkflowJob) {
      case WorkflowJob.Step: {
        const { runId, visit } = job.data as StepPayload;
        return this.runs.advance(runId, visit);
      }
      default:
        throw new Error(`workflows queue: no handler for job ${job.name}`);
    }
  }
}
