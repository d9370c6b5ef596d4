import { Injectable } from '@nestjs/common';
import { CampaignContacts, CampaignViews } from '@outreach/campaigns';
import { AppError } from '@outreach/core';
import { CALL_STATUSES, CallStatus } from '../domain/call';
import { CallView } from './calls.ports';

export { CALL_STATUSES };

/**
 * An operator's correction of one evaluation metric. The analysis's own `evaluation` is never
 * rewritten: the override sits beside it, with the value it replaced, so a re-run of the analysis
 * cannot undo a correction and the audit survives.
 */
export interface MetricOverride {
  value: string;
  /** What the analysis had said (null when it had not judged the metric). */
  originalValue: string | null;
  overriddenAt: string;
}

/** A call as the calls API shows it: the call record plus the operator's metric overrides. */
export interface CallRecord extends CallView {
  metricOverrides: Record<string, MetricOverride>;
}

export interface CallListFilter {
  campaignId?: string;
  status?: CallStatus;
  outcome?: string;
  /** Calls started at or after this instant. */
  from?: Date;
  /** Calls started before this instant. */
  to?: Date;
}

/** The campaign contact a call was placed to, as GET /calls/{id}/contact shows it. */
export interface CallContact {
  id: string;
  campaignId: string;
  phone: string;
  status: string;
}

/** The fixed window of GET /campaigns/{id}/activity (spec "Limits": 50 activity calls). */
export const CAMPAIGN_ACTIVITY_WINDOW = 50;

/** Reads of the calls table for the API (newest first: started_at DESC, id DESC). */
export abstract class CallQueries {
  /** One page of the workspace's calls matching `filter`, and how many match in all. */
  abstract list(workspaceId: string, filter: CallListFilter, page: { offset: number; limit: number }): Promise<{ items: CallRecord[]; total: number }>;
  /** The latest `limit` calls of one campaign. */
  abstract latestOfCampaign(workspaceId: string, campaignId: string, limit: number): Promise<CallRecord[]>;
  /** The workspace's call; null for unknown, malformed or another workspace's ids. */
  abstract findById(workspaceId: string, callId: string): Promise<CallRecord | null>;
}

/** What the calls API reads: lists with totals, one call, a campaign's recent activity. */
@Injectable()
export class CallReads {
  constructor(
    private readonly queries: CallQueries,
    private readonly campaigns: CampaignViews,
    private readonly contacts: CampaignContacts,
  ) {}

  list(workspaceId: string, filter: CallListFilter, page: { offset: number; limit: number }): Promise<{ items: CallRecord[]; total: number }> {
    if (filter.from && filter.to && filter.from.getTime() > filter.to.getTime()) {
      throw new AppError('invalid_query', { issues: [{ path: 'to', message: 'to must not be before from' }] });
    }
    return this.queries.list(workspaceId, filter, page);
  }

  async get(workspaceId: string, callId: string): Promise<CallRecord> {
    const call = await this.queries.findById(workspaceId, callId);
    if (!call) throw new AppError('call_not_found', { message: `no call ${callId}` });
    return call;
  }

  /**
   * The campaign contact the call was placed to (decisions.md 22.5), read through the campaigns
   * module's CampaignContacts: 404 call_not_found for an unknown or foreign call; 409
   * no_contact_for_call for a call without one (a test call, an inbound call nobody took).
   */
  async contactOf(workspaceId: string, callId: string): Promise<CallContact> {
    const call = await this.get(workspaceId, callId);
    const contact = call.campaignId && call.contactId ? await this.contacts.find(workspaceId, call.campaignId, call.contactId) : null;
    if (!contact) throw new AppError('no_contact_for_call', { message: `call ${callId} was not placed to a campaign contact` });
    return { id: contact.id, campaignId: contact.campaignId, phone: contact.phone, status: contact.status };
  }

  /** 404 campaign_not_found for an unknown (or another workspace's) campaign. */
  async campaignActivity(workspaceId: string, campaignId: string): Promise<CallRecord[]> {
    await this.campaigns.require(workspaceId, campaignId);
    return this.queries.latestOfCampaign(workspaceId, campaignId, CAMPAIGN_ACTIVITY_WINDOW);
  }
}
