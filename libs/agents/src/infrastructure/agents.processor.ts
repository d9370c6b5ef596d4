import { Processor } from '@nestjs/bullmq';
import { QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { AgentJob, AgentQueue, ProvisionAgentPayload } from '../application/agent-jobs';
import { ProvisionAgent } from '../application/provision-agent.use-case';

/** The `agents` queue: each job only calls its use case (which is idempotent). */
@Processor(AgentQueue.Agents)
export class AgentsProcessor extends QueueWorkerHost {
  constructor(private readonly provision: ProvisionAgent) {
    super(AgentQueue.Agents);
  }

  protected async handle(job: Job): Promise<void> {
    switch (job.name as AgentJob) {
      case AgentJob.Provision:
        return this.provision.execute((job.data as ProvisionAgentPayload).agentId);
      case AgentJob.Sync:
        return this.provision.sync((job.data as ProvisionAgentPayload).agentId);
      default:
        throw new Error(`agents queue: no handler for job ${job.name}`);
    }
  }
}
