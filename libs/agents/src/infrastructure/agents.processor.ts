import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { AgentJob, AgentQueue, ProvisionAgentPayload } from '../application/agent-jobs';
import { ProvisionAgent } from '../application/provision-agent.use-case';

const ERROR_LOG_INTERVAL_MS = 30_000;

/** The `agents` queue: each job only calls its use case (which is idempotent). */
@Processor(AgentQueue.Agents)
export class AgentsProcessor extends WorkerHost {
  private readonly logger = new Logger('AgentsProcessor');
  private lastErrorLog = 0;

  constructor(private readonly provision: ProvisionAgent) {
    super();
  }

  async process(job: Job): Promise<void> {
    switch (job.name as AgentJob) {
      case AgentJob.Provision:
        return this.provision.execute((job.data as ProvisionAgentPayload).agentId);
      default:
        throw new Error(`agents queue: no handler for job ${job.name}`);
    }
  }

  /** Redis outages surface here while BullMQ reconnects: log them, at most every 30 s. */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    const now = Date.now();
    if (now - this.lastErrorLog < ERROR_LOG_INTERVAL_MS) return;
    this.lastErrorLog = now;
    this.logger.warn(`agents worker: ${error.message}`);
  }
}
