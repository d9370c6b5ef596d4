import { Injectable } from '@nestjs/common';
import { AppError, Outbox } from '@outreach/core';
import { Campaign } from '../domain/campaign.aggregate';
import { CampaignJob, CampaignQueue } from './campaign-jobs';
import { CampaignRepository } from './campaigns.ports';
import { ContactImporter, ContactInput, ImportSummary } from './contact-importer';

/** A contact taken from a CRM record (phone as the CRM holds it: normalised here). */
export type CrmContactInput = ContactInput;

export interface CrmContactsAdded extends ImportSummary {
  /** The campaign was RUNNING: its dispatch job was written with the contacts. */
  dispatched: boolean;
}

/** A campaign's defaultCrmConnectionId and defaultCrmSegmentId. */
export interface CrmImportDefaults {
  connectionId: string | null;
  segmentId: string | null;
}

/**
 * The crm module's way into campaigns (it never writes campaigns' tables): CRM imports (DRAFT, or a
 * live CRM_WEBHOOK campaign) and contacts of inbound CRM webhooks (the RUNNING CRM_WEBHOOK campaign
 * of a connection). Every method runs inside the caller's UnitOfWork transaction, so the contacts
 * and the crm module's own bookkeeping (import cursor, webhook event) commit together. Phones are
 * normalised with the campaign's countryCode; records without a usable phone are counted as invalid
 * (never an error: one bad CRM record must not stop an import); a phone the campaign has is a
 * duplicate (the unique (campaign, phone) index).
 */
@Injectable()
export class CrmContactIntake {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly importer: ContactImporter,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Locks the campaign until the transaction ends and checks a CRM import may add to it: 404
   * campaign_not_found; 400 campaign_not_in_draft unless DRAFT or a live CRM_WEBHOOK campaign.
   * Answers the campaign's CRM defaults (an import that names no segment reads the default one).
   */
  async openForImport(workspaceId: string, campaignId: string): Promise<CrmImportDefaults> {
    const campaign = await this.require(workspaceId, campaignId);
    campaign.assertCrmImportAllowed();
    const p = campaign.toProps();
    return { connectionId: p.defaultCrmConnectionId, segmentId: p.defaultCrmSegmentId };
  }

  /** Lookup only (404 campaign_not_found), for routes that check the campaign before anything else. */
  async assertExists(workspaceId: string, campaignId: string): Promise<void> {
    if (!(await this.campaigns.findById(workspaceId, campaignId))) throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
  }

  /**
   * One page of an import (the worker, after openForImport admitted it). The campaign must still
   * exist (delete waits for the import); a campaign that left the statuses imports are allowed in
   * since the import began (it was started, or stopped) still receives the page: the import was
   * admitted, and a RUNNING campaign is woken.
   */
  async addImported(workspaceId: string, campaignId: string, contacts: readonly CrmContactInput[]): Promise<CrmContactsAdded> {
    const campaign = await this.require(workspaceId, campaignId);
    return this.add(campaign, contacts);
  }

  /** The RUNNING CRM_WEBHOOK campaign fed by this connection, share-locked; null when none is live. */
  async liveWebhookCampaign(workspaceId: string, connectionId: string): Promise<string | null> {
    const campaign = await this.campaigns.findRunningForCrmConnection(workspaceId, connectionId);
    return campaign ? campaign.id : null;
  }

  /** Contacts of webhook events into the campaign liveWebhookCampaign returned and locked (same transaction). */
  async addFromWebhook(workspaceId: string, campaignId: string, contacts: readonly CrmContactInput[]): Promise<CrmContactsAdded> {
    const campaign = await this.campaigns.findById(workspaceId, campaignId);
    if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    return this.add(campaign, contacts);
  }

  private async add(campaign: Campaign, contacts: readonly CrmContactInput[]): Promise<CrmContactsAdded> {
    const p = campaign.toProps();
    const summary = await this.importer.importContacts(p.workspaceId, p.id, contacts, { countryCode: p.countryCode, removeInvalidRows: true });
    const dispatched = summary.imported > 0 && p.status === 'RUNNING';
    if (dispatched) await this.outbox.enqueue({ queue: CampaignQueue.Campaigns, name: CampaignJob.Dispatch, payload: { campaignId: p.id } });
    return { ...summary, dispatched };
  }

  private async require(workspaceId: string, campaignId: string): Promise<Campaign> {
    const campaign = await this.campaigns.findByIdForUpdate(workspaceId, campaignId);
    if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    return campaign;
  }
}
