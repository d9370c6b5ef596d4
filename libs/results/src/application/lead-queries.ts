import { Injectable } from '@nestjs/common';
import { ApiLeadIntake, ContactTimeline, ContactWaitingReasons, TimelinePage, WaitingReason } from '@outreach/campaigns';
import { AppError } from '@outreach/core';
import { LeadKeyStore, ResultStore } from './results.ports';

export interface LeadView {
  id: string;
  campaignId: string;
  /** The key of the push that created the lead. */
  idempotencyKey: string;
  phone: string;
  name: string | null;
  fields: Record<string, unknown>;
  /** The contact's status: PENDING, IN_PROGRESS, RETRY_SCHEDULED, COMPLETED, FAILED, DO_NOT_CALL, HAND_OFF. */
  status: string;
  attempts: number;
  lastOutcome: string | null;
  lastAttemptAt: string | null;
  /** When the lead is expected to be tried next, or null (decisions.md 28.5). */
  nextAttemptAt: string | null;
  /** Why the lead is not being called now, or null (in flight, final, or due and waiting for a line). */
  waitingReason: WaitingReason | null;
  /** The result's id once the lead is final and its result is written. */
  resultId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /v1/campaigns/{id}/leads/{leadId}: a pushed lead, live. */
@Injectable()
export class LeadQueries {
  constructor(
    private readonly intake: ApiLeadIntake,
    private readonly keys: LeadKeyStore,
    private readonly results: ResultStore,
    private readonly waiting: ContactWaitingReasons,
    private readonly timelines: ContactTimeline,
  ) {}

  async get(workspaceId: string, campaignId: string, leadId: string): Promise<LeadView> {
    const { contact, key } = await this.find(workspaceId, campaignId, leadId);
    const [waiting] = await this.waiting.of(campaignId, [contact]);
    return {
      id: contact.id,
      campaignId,
      idempotencyKey: key.idempotencyKey,
      phone: contact.phone,
      name: key.lead.name,
      fields: key.lead.fields,
      status: contact.status,
      attempts: contact.attempts,
      lastOutcome: contact.lastOutcome,
      lastAttemptAt: contact.lastAttemptAt,
      nextAttemptAt: waiting.nextAttemptAt,
      waitingReason: waiting.waitingReason,
      resultId: await this.results.idForLead(leadId),
      createdAt: contact.createdAt,
      updatedAt: contact.updatedAt,
    };
  }

  /** GET /v1/campaigns/{id}/leads/{leadId}/timeline: the lead's events, oldest first (decisions.md 29.3). */
  async timeline(workspaceId: string, campaignId: string, leadId: string, query: { cursor?: string; limit: number }): Promise<TimelinePage> {
    await this.find(workspaceId, campaignId, leadId);
    return this.timelines.page(leadId, query);
  }

  /** 404 campaign_not_found; 404 lead_not_found for an unknown or malformed id, a CSV contact, another campaign's lead. */
  private async find(workspaceId: string, campaignId: string, leadId: string) {
    if (!(await this.intake.exists(workspaceId, campaignId))) {
      throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    }
    const notFound = () => new AppError('lead_not_found', { message: `no lead ${leadId} in campaign ${campaignId}` });
    const contact = await this.intake.findContact(campaignId, leadId);
    if (!contact) throw notFound();
    const key = await this.keys.firstForLead(leadId);
    if (!key || key.campaignId !== campaignId || key.workspaceId !== workspaceId) throw notFound();
    return { contact, key };
  }
}
