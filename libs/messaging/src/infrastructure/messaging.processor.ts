import { Processor } from '@nestjs/bullmq';
import { QueueWorkerHost } from '@outreach/platform';
import { Job } from 'bullmq';
import { MessageEventIntake } from '../application/message-event-intake';
import { MessagingJob, MessagingQueue, ProviderReportPayload, ReviewTemplatePayload, VerifySenderPayload } from '../application/messaging-jobs';
import { WhatsappSenders } from '../application/whatsapp-senders';
import { WhatsappTemplates } from '../application/whatsapp-templates';

/**
 * The `messaging` queue: each job only calls its use case (which is idempotent). A short lease
 * (as the engine's attempts, decisions.md 33.15): a provider report whose worker died is taken up
 * again within seconds, not after BullMQ's default minute, since the leg of its message holds a
 * line until the engine hears of it.
 */
@Processor(MessagingQueue.Messaging, { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 3 })
export class MessagingProcessor extends QueueWorkerHost {
  constructor(
    private readonly senders: WhatsappSenders,
    private readonly templates: WhatsappTemplates,
    private readonly intake: MessageEventIntake,
  ) {
    super(MessagingQueue.Messaging);
  }

  protected async handle(job: Job): Promise<void> {
    switch (job.name as MessagingJob) {
      case MessagingJob.VerifySender:
        return this.senders.verify((job.data as VerifySenderPayload).senderId);
      case MessagingJob.ReviewTemplate:
        return this.templates.review((job.data as ReviewTemplatePayload).templateId);
      case MessagingJob.ProviderReport: {
        const { senderId, report } = job.data as ProviderReportPayload;
        return this.intake.applyReport(senderId, report);
      }
      default:
        throw new Error(`messaging queue: no handler for job ${job.name}`);
    }
  }
}
