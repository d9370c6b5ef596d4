import { Injectable } from '@nestjs/common';
import { AppError, Outbox, UnitOfWork } from '@outreach/core';
import { Campaign } from '../domain/campaign.aggregate';
import { assertJourneyContactCap } from '../domain/campaign-kinds';
import { assertContactRetryable } from '../domain/contact';
import { ContactStatus } from '../domain/contact-state-machine';
import { CampaignJob, CampaignQueue } from './campaign-jobs';
import { CampaignRepository, ContactRepository, ContactView } from './campaigns.ports';
import { ContactImporter, ContactInput, ImportSummary } from './contact-importer';
import { ContactTimeline, TimelinePage } from './contact-timeline';
import { ContactWaitingReasons, LeadWaiting } from './contact-waiting.service';

/** A contact as its views show it: the stored view plus why it waits and when it is tried next (decisions.md 28.5). */
export type ExplainedContactView = ContactView & LeadWaiting;

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
    private readonly waiting: ContactWaitingReasons,
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
      const contactCount = await this.contacts.count(campaignId);
      assertJourneyContactCap(p.workflowId !== null, contactCount);
      return { ...summary, contactCount };
    });
  }

  async leads(
    workspaceId: string,
    campaignId: string,
    query: { offset: number; limit: number; status?: ContactStatus },
  ): Promise<{ items: ExplainedContactView[]; total: number }> {
    const campaign = await this.campaigns.findById(workspaceId, campaignId);
    if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    const page = await this.contacts.list(campaignId, query);
    return { items: await this.explain(campaignId, page.items), total: page.total };
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

  /**
   * One contact of a campaign, as the contacts listing shows it: for other modules that hold a
   * contact id (the calls module's GET /calls/{id}/contact, decisions.md 22.5). Null for an unknown
   * or another workspace's campaign or contact.
   */
  async find(workspaceId: string, campaignId: string, contactId: string): Promise<ContactView | null> {
    const campaign = await this.campaigns.findById(workspaceId, campaignId);
    return campaign ? this.contacts.findById(campaignId, contactId) : null;
  }

  /** The `retry` transition (FAILED → PENDING) with fresh attempts, on a campaign that has started and is not finished. */
  async retry(workspaceId: string, campaignId: string, contactId: string): Promise<ExplainedContactView> {
    const contact = await this.uow.run(async () => {
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
    return (await this.explain(campaignId, [contact]))[0];
  }

  private async explain(campaignId: string, contacts: readonly ContactView[]): Promise<ExplainedContactView[]> {
    const waiting = await this.waiting.of(campaignId, contacts);
    return contacts.map((c, i) => ({ ...c, ...waiting[i] }));
  }

  private async requireForUpdate(workspaceId: string, campaignId: string): Promise<Campaign> {
    const campaign = await this.campaigns.findByIdForUpdate(workspaceId, campaignId);
    if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    return campaign;
  }
}
