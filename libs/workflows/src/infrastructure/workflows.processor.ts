import { Processor } from '@nestjs/bullmq';
import { OnApplicationBootstrap } from '@nestjs/common';
import { QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { JourneyRuns } from '../application/journey-runs';
import { StepPayload, WorkflowJob, WorkflowQueue } from '../application/workflow-jobs';

/** Step jobs of different runs side by side per process (one run's steps serialise on its row lock). */
const STEP_CONCURRENCY = 16;

/** Queue `workflows`: `step` jobs. Handlers only call use cases. */
@Processor(WorkflowQueue.Workflows)
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
