import { Injectable } from '@nestjs/common';
import { EmailSenderRepository, EmailTemplateRepository, WhatsappSenderRepository, WhatsappTemplateRepository } from './messaging.ports';

/** How a campaign's WhatsApp outreach template stands (the campaigns module's start checks read it). */
export type OutreachTemplateReadiness = 'missing' | 'not_approved' | 'needs_runtime_context' | 'ready';

/**
 * What a campaign start needs to know about messaging (decisions.md 30.7): is there a sender to
 * send from, and can the outreach template be sent as it is. The campaigns module reads it through
 * its WhatsappReadiness / EmailReadiness ports.
 */
@Injectable()
export class MessagingReadiness {
  constructor(
    private readonly whatsappSenders: WhatsappSenderRepository,
    private readonly whatsappTemplates: WhatsappTemplateRepository,
    private readonly emailSenders: EmailSenderRepository,
    private readonly emailTemplates: EmailTemplateRepository,
  ) {}

  /** A CONNECTED sender exists, and the template (by id, in the workspace) is APPROVED and fillable without runtime values. */
  async whatsapp(workspaceId: string, outreachTemplateId: string | null): Promise<{ hasSender: boolean; template: OutreachTemplateReadiness }> {
    const hasSender = (await this.whatsappSenders.countConnected(workspaceId)) > 0;
    const template = outreachTemplateId === null ? null : await this.whatsappTemplates.findById(workspaceId, outreachTemplateId);
    if (!template) return { hasSender, template: 'missing' };
    if (template.status !== 'APPROVED') return { hasSender, template: 'not_approved' };
    if (template.needsRuntimeContext) return { hasSender, template: 'needs_runtime_context' };
    return { hasSender, template: 'ready' };
  }

  /** An EMAIL campaign sends from the workspace's default mailbox with its default email template. */
  async email(workspaceId: string): Promise<{ hasSender: boolean; hasTemplate: boolean }> {
    const senders = await this.emailSenders.listByWorkspace(workspaceId);
    return { hasSender: senders.some((s) => s.isDefault), hasTemplate: await this.emailTemplates.hasDefault(workspaceId) };
  }
}
