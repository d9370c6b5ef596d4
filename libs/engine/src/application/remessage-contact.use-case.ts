import { Injectable, Logger } from '@nestjs/common';
import { CampaignRemessage, ContactTimeline, RemessagePayload } from '@outreach/campaigns';
import { isAppError, RetryLater } from '@outreach/core';
import { MessageLegs, SendMessage, SendMessageInput, WhatsappSenders } from '@outreach/messaging';
import { emailAddressOf } from '../domain/message-legs';

export type RemessageState = 'sent' | 'failed' | 'skipped' | 'not_running' | 'no_sender' | 'no_email_address' | 'refused';

/**
 * One contact of a remessage (decisions.md 34.6): the campaign's WhatsApp outreach template sent
 * again through messaging's SendMessage (opt-outs, approval, bindings and billing are its rules),
 * from the workspace's default CONNECTED sender (else its first CONNECTED one), under the key
 * `remessage-<remessageId>-<contactId>`: a re-run never sends twice. Nothing is sent to a contact a
 * person has taken over (HAND_OFF) or a campaign that no longer runs. The message's variables are
 * the contact's fields with its name and phone, and the campaign's name. An EMAIL campaign
 * (decisions.md 33.19) sends its leg's message again: the workspace's default mailbox and default
 * email template to the contact's `email` field, as the leg does (33.2).
 */
@Injectable()
export class RemessageContact {
  private readonly logger = new Logger('RemessageContact');

  constructor(
    private readonly remessage: CampaignRemessage,
    private readonly senders: WhatsappSenders,
    private readonly legs: MessageLegs,
    private readonly send: SendMessage,
    private readonly timeline: ContactTimeline,
  ) {}

  async execute(payload: RemessagePayload): Promise<{ state: RemessageState }> {
    const target = await this.remessage.target(payload.campaignId, payload.contactId);
    if (!target) return { state: 'skipped' };
    const { campaign, contact } = target;
    if (campaign.status !== 'RUNNING') return { state: 'not_running' };
    const common = {
      workspaceId: campaign.workspaceId,
      variables: { contact: { ...contact.fields, name: contact.name, phone: contact.phone }, campaign: { campaign_name: campaign.name } },
      idempotencyKey: `remessage-${payload.remessageId}-${payload.contactId}`,
    };
    let input: SendMessageInput;
    if (campaign.channel === 'EMAIL') {
      const to = emailAddressOf(contact.fields);
      if (!to) return { state: 'no_email_address' };
      const defaults = await this.legs.emailDefaults(campaign.workspaceId);
      if (!defaults) return { state: 'no_sender' };
      input = { ...common, channel: 'EMAIL', senderId: defaults.senderId, templateId: defaults.templateId, to };
    } else {
      const connected = (await this.senders.list(campaign.workspaceId)).filter((s) => s.status === 'CONNECTED');
      const sender = connected.find((s) => s.isDefault) ?? connected[0];
      const templateId = campaign.settings.whatsappOutreachTemplateId;
      if (!sender || !templateId) return { state: 'no_sender' };
      input = { ...common, channel: 'WHATSAPP', senderId: sender.id, templateId, to: contact.phone };
    }
    try {
      const result = await this.send.send(input);
      if (result.outcome === 'retry_later' || result.outcome === 'in_flight') {
        throw new RetryLater(30_000, `remessage of ${payload.contactId}: ${result.outcome}`);
      }
      if (result.outcome === 'sent' && !result.replayed) {
        await this.timeline.record({
          contactId: contact.id,
          type: 'message_sent',
          detail: { messageId: result.message.id, remessageId: payload.remessageId },
        });
      }
      return { state: result.outcome === 'sent' ? 'sent' : 'failed' };
    } catch (error) {
      // Opted out, template no longer approved, a binding without a value: this contact gets nothing.
      if (!isAppError(error)) throw error;
      this.logger.warn(`remessage of contact ${payload.contactId} refused: ${error.code}`);
      return { state: 'refused' };
    }
  }
}
