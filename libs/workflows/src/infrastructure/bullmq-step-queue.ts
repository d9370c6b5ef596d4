import { Injectable } from '@nestjs/common';
import { QueueProducer } from '@outreach/platform';
import { StepQueue } from '../application/runs.ports';
import { StepPayload, WorkflowJob, WorkflowQueue } from '../application/workflow-jobs';
import { stepJobId } from '../domain/run';

/** Step jobs on BullMQ (decisions.md 37.12). */
@Injectable()
export class BullmqStepQueue extends StepQueue {
  constructor(private readonly producer: QueueProducer) {
    super();
  }

  async later(runId: string, visit: number, delayMs: number): Promise<void> {
    const payload: StepPayload = { runId, visit };
    await this.producer.add(WorkflowQueue.Workflows, WorkflowJob.Step, payload, stepJobId(runId, visit), { delay: delayMs });
  }

  async readd(jobs: ReadonlyArray<{ runId: string; visit: number }>): Promise<void> {
    const queue = this.producer.queue(WorkflowQueue.Workflows);
    const fresh: Array<{ name: string; payload: StepPayload; jobId: string }> = [];
    for (const { runId, visit } of jobs) {
      const id = stepJobId(runId, visit);
      const job = await queue.getJob(id);
      const state = job ? await job.getState() : 'unknown';
      if (job && state === 'delayed') {
        await job.promote().catch(() => undefined); // promoted meanwhile: fine
        continue;
      }
      if (job && (state === 'waiting' || state === 'active' || state === 'prioritized' || state === 'waiting-children')) continue;
      // Finished (kept for de-duplication) or gone (a flush): added again.
      if (job) await job.remove().catch(() => undefined);
      fresh.push({ name: WorkflowJob.Step, payload: { runId, visit }, jobId: id });
    }
    await this.producer.addBulk(WorkflowQueue.Workflows, fresh);
  }

  async wake(runId: string, visit: number, cause: string): Promise<void> {
    const payload: StepPayload = { runId, visit };
    await this.producer.add(WorkflowQueue.Workflows, WorkflowJob.Step, payload, `${stepJobId(runId, visit)}-${cause}`);
  }
}
