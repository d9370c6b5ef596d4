import { Injectable } from '@nestjs/common';
import { AppError, Outbox, StatementParts } from '@outreach/core';
import { CampaignProps } from '../domain/campaign.aggregate';
import { ContactRecord } from '../domain/contact';
import { JOURNEY_LIVE_CAP, JOURNEY_LIVE_CAP_RETRY_AFTER_SECONDS } from '../domain/campaign-kinds';
import { CampaignJob, CampaignQueue } from './campaign-jobs';
import { CampaignRepository } from './campaigns.ports';
import { WithIsoDates } from './iso-dates';
import { ContactTimeline, PendingTimelineEvent } from './contact-timeline';

/** One contact pushed through the API (phone already E.164). */
export interface ApiLeadContactInput {
  phone: string;
  name: string | null;
  fields: Record<string, string>;
}

/** What the leads module sees of a campaign contact. */
export const API_LEAD_CONTACT_FIELDS = [
  'id',
  'campaignId',
  'phone',
  'name',
  'fields',
  'status',
  'attempts',
  'lastOutcome',
  'lastAttemptAt',
  'nextAttemptAt',
  'connectedPhone',
  'leg',
  'messageOutcome',
  'recipientZone',
  'recipientRegion',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof ContactRecord>;

export type ApiLeadContactView = WithIsoDates<Pick<ContactRecord, (typeof API_LEAD_CONTACT_FIELDS)[number]>>;

/** What a lead push checks of its campaign. */
export const API_LEAD_CAMPAIGN_FIELDS = ['id', 'source', 'status', 'countryCode', 'workflowId'] as const satisfies ReadonlyArray<keyof CampaignProps>;
export type ApiLeadCampaign = Pick<CampaignProps, (typeof API_LEAD_CAMPAIGN_FIELDS)[number]>;

/** Persistence of API lead contacts (implemented in infrastructure/). */
export abstract class ApiLeadContactStore {
  /**
   * The workspace's campaign, share-locked until the transaction ends (FOR KEY SHARE): pushes do
   * not wait for each other, lifecycle changes (FOR UPDATE) wait for the pushes in flight.
   */
  abstract lockCampaign(workspaceId: string, campaignId: string): Promise<ApiLeadCampaign | null>;
  /**
   * Inserts a PENDING contact with its timeline event `created` (one statement, decisions.md 46.6),
   * or finds the campaign's contact with that phone (a campaign calls a phone once; no event then);
   * `created` tells which. Moves the campaign's contact count.
   */
  abstract insertOrFind(
    workspaceId: string,
    campaignId: string,
    contact: ApiLeadContactInput,
    createdEvent: PendingTimelineEvent,
  ): Promise<{ id: string; created: boolean; contact: ApiLeadContactView }>;
  /**
   * The new contact of `lead`, with its timeline event `created` and the campaign's count, as parts
   * of a statement other modules write into too (decisions.md 42.3), guarded by the campaign: it
   * must still be the workspace's RUNNING API campaign without a journey, with `countryCode` as its
   * calling code, and must not have the phone. Answers the name of the part that returns the new
   * contact's row (none when any of that fails), share-locking the campaign as `lockCampaign` does.
   */
  abstract admitNewInto(parts: StatementParts, lead: NewApiLead, createdEvent: PendingTimelineEvent): string;
  abstract find(campaignId: string, contactId: string): Promise<ApiLeadContactView | null>;
  /** Contacts of the campaign not final yet (PENDING, IN_PROGRESS, RETRY_SCHEDULED): a journey's live leads. */
  abstract liveCount(campaignId: string): Promise<number>;
}

/** A lead for a new contact, written in one statement with the push's other rows (decisions.md 42.3). */
export interface NewApiLead {
  workspaceId: string;
  campaignId: string;
  /** The calling code the phone was normalised with: the campaign's, as openCampaign last read it. */
  countryCode: string | null;
  /** The new contact's id, chosen by the caller. */
  contactId: string;
  contact: ApiLeadContactInput;
  /** The contact's createdAt. */
  at: Date;
}

/** Campaigns whose calling code a process remembers (openCampaign), at most. */
const REMEMBERED_CAMPAIGNS = 10_000;

export interface OpenApiCampaign {
  campaignId: string;
  /** Default calling code for numbers written without one ("+91"), or null. */
  countryCode: string | null;
}

/**
 * The lead push's way into campaigns: one contact at a time into a RUNNING API campaign, with the
 * engine's dispatch job written in the same transaction so the lead is dialled at once. The
 * caller wraps `openCampaign` and `admit` in one UnitOfWork.run.
 */
@Injectable()
export class ApiLeadIntake {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly contacts: ApiLeadContactStore,
    private readonly outbox: Outbox,
    private readonly timeline: ContactTimeline,
  ) {}

  /** The calling code of campaigns this process saw taking API leads (openCampaign), by id. */
  private readonly countryCodes = new Map<string, string | null>();

  /**
   * Share-locks the campaign row until the transaction ends (a pause cannot slip in between the
   * check and the insert; pushes still run side by side). 404 campaign_not_found; 409
   * campaign_not_accepting with reason `not_api` or the campaign's status.
   */
  async openCampaign(workspaceId: string, campaignId: string): Promise<OpenApiCampaign> {
    const p = await this.contacts.lockCampaign(workspaceId, campaignId);
    if (!p) throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    if (p.source !== 'API') {
      throw new AppError('campaign_not_accepting', { message: 'the campaign does not take API leads', extra: { reason: 'not_api' } });
    }
    if (p.status !== 'RUNNING') {
      throw new AppError('campaign_not_accepting', { message: `the campaign is ${p.status}`, extra: { reason: p.status } });
    }
    if (p.workflowId !== null) await this.assertJourneyRoom(p.id);
    else this.remember(p.id, p.countryCode);
    return { campaignId: p.id, countryCode: p.countryCode };
  }

  /**
   * A journey campaign takes a lead only while fewer than JOURNEY_LIVE_CAP are pending or in flight
   * (decisions.md 37.5): 429 journey_campaign_live_cap with Retry-After. Pushes running side by
   * side may pass the check together: the cap can be passed by the pushes in flight, never more.
   */
  private async assertJourneyRoom(campaignId: string): Promise<void> {
    const live = await this.contacts.liveCount(campaignId);
    if (live >= JOURNEY_LIVE_CAP) {
      throw new AppError('journey_campaign_live_cap', {
        message: `${live} leads of this journey campaign are pending or in flight (at most ${JOURNEY_LIVE_CAP}); retry later`,
        headers: { 'Retry-After': String(JOURNEY_LIVE_CAP_RETRY_AFTER_SECONDS) },
      });
    }
  }

  /** Whether the workspace has this campaign (any source, any status). */
  async exists(workspaceId: string, campaignId: string): Promise<boolean> {
    return (await this.campaigns.findById(workspaceId, campaignId)) !== null;
  }

  /** After openCampaign, in the same transaction: the contact (as it stands) plus, when it is new, its timeline event and a dispatch job. */
  async admit(workspaceId: string, campaignId: string, input: ApiLeadContactInput): Promise<{ contactId: string; created: boolean; contact: ApiLeadContactView }> {
    const { id, created, contact } = await this.contacts.insertOrFind(workspaceId, campaignId, input, this.timeline.pending('created', { source: 'API' }));
    if (created) await this.outbox.enqueue({ queue: CampaignQueue.Campaigns, name: CampaignJob.Dispatch, payload: { campaignId } });
    return { contactId: id, created, contact };
  }

  /**
   * The calling code of a campaign this process saw taking API leads without a journey, as it was
   * then; undefined when it has not (yet). A hint only: `admitNewInto` checks it is still so.
   */
  rememberedCountryCode(campaignId: string): string | null | undefined {
    return this.countryCodes.get(campaignId);
  }

  /**
   * The new contact of a lead and its dispatch job, as parts of one statement (decisions.md 42.3):
   * written only if the campaign still takes the lead as openCampaign would (RUNNING, source API,
   * no journey, the same calling code) and does not have the phone yet. Answers the name of the
   * part that returns the new contact's row; no row means nothing of the lead is written, and the
   * caller takes the way through openCampaign and admit, which says why.
   */
  admitNewInto(parts: StatementParts, lead: NewApiLead): string {
    const guard = this.contacts.admitNewInto(parts, lead, this.timeline.pending('created', { source: 'API' }));
    this.outbox.enqueueAfter(parts, guard, { queue: CampaignQueue.Campaigns, name: CampaignJob.Dispatch, payload: { campaignId: lead.campaignId } });
    return guard;
  }

  private remember(campaignId: string, countryCode: string | null): void {
    this.countryCodes.delete(campaignId);
    if (this.countryCodes.size >= REMEMBERED_CAMPAIGNS) this.countryCodes.delete(this.countryCodes.keys().next().value as string);
    this.countryCodes.set(campaignId, countryCode);
  }

  findContact(campaignId: string, contactId: string): Promise<ApiLeadContactView | null> {
    return this.contacts.find(campaignId, contactId);
  }
}
