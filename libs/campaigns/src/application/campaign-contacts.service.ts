import { Injectable } from '@nestjs/common';
import { AppError, Outbox, UnitOfWork } from '@outreach/core';
import { Campaign } from '../domain/campaign.aggregate';
import { assertContactRetryable } from '../domain/contact';
import { ContactStatus } from '../domain/contact-state-machine';
import { CampaignJob, CampaignQueue } from './campaign-jobs';
import { CampaignRepository, ContactRepository, ContactView } from './campaigns.ports';
import { ContactImporter, ContactInput, ImportSummary } from './contact-importer';
import { ContactTimeline, TimelinePage } from './contact-timeline';

/** Contacts of a campaign: JSON additions (DRAFT), the leads listing, and retrying a FAILED contact. */
@Injectable()
export class CampaignContacts {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly contacts: ContactRepository,
    private readonly importer: ContactImporter,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly timelines: ContactTimeline,
  ) {}

  async add(workspaceId: string, campaignId: string, inputs: readonly ContactInput[]): Promise<ImportSummary & { contactCount: number }> {
    return this.uow.run(async () => {
      const campaign = await this.requireForUpdate(workspaceId, campaignId);
      campaign.assertAllowed('addContacts');
      const p = campaign.toProps();
      const summary = await this.importer.importContacts(workspaceId, campaignId, inputs, {
        countryCode: p.countryCode,
        removeInvalidRows: p.removeInvalidRows,
      });
      return { ...summary, contactCount: await this.contacts.count(campaignId) };
    });
  }

  async leads(
    workspaceId: string,
    campaignId: string,
    query: { offset: number; limit: number; status?: ContactStatus },
  ): Promise<{ items: ContactView[]; total: number }> {
    const campaign = await this.campaigns.findById(workspaceId, campaignId);
    if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    return this.contacts.list(campaignId, query);
  }

  /**
   * A contact's timeline, oldest first (decisions.md 29.3): 404 campaign_not_found, then
   * contact_not_found (unknown, malformed, another campaign's); a bad cursor → 400 invalid_cursor.
   */
  async timeline(workspaceId: string, campaignId: string, contactId: string, query: { cursor?: string; limit: number }): Promise<TimelinePage> {
    const campaign = await this.campaigns.findById(workspaceId, campaignId);
    if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    const contact = await this.contacts.findById(campaignId, contactId);
    if (!contact) throw new AppError('contact_not_found', { message: `no contact ${contactId} in campaign ${campaignId}` });
    return this.timelines.page(contactId, query);
  }

  /** The `retry` transition (FAILED → PENDING) with fresh attempts, on a campaign that has started and is not finished. */
  async retry(workspaceId: string, campaignId: string, contactId: string): Promise<ContactView> {
    return this.uow.run(async () => {
      const campaign = await this.requireForUpdate(workspaceId, campaignId);
      const contact = await this.contacts.findById(campaignId, contactId);
      if (!contact) throw new AppError('contact_not_found', { message: `no contact ${contactId} in campaign ${campaignId}` });
      campaign.assertAllowed('retryContact');
      assertContactRetryable(contact.status);
      await this.contacts.reset(campaignId, 'retry', contactId);
      if (campaign.status === 'RUNNING') {
        await this.outbox.enqueue({ queue: CampaignQueue.Campaigns, name: CampaignJob.Dispatch, payload: { campaignId } });
      }
      return (await this.contacts.findById(campaignId, contactId))!;
    });
  }

  private async requireForUpdate(workspaceId: string, campaignId: string): Promise<Campaign> {
    const campaign = await this.campaigns.findByIdForUpdate(workspaceId, campaignId);
    if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    return campaign;
  }
}
