import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ApiLeadIntake, ContactTimeline, InboundCampaigns } from '@outreach/campaigns';
import { WorkspaceAdministration } from '@outreach/workspaces';
import { AppConfig, Clock, Outbox, UnitOfWork } from '@outreach/core';
import { buildLeadResult, isFinalLeadStatus } from '../domain/lead-result';
import { deliverJob } from './results-jobs';
import { LeadJourneys } from './lead-journeys';
import { DeliveryStore, FinalCallLookup, LeadKeyRecord, LeadKeyStore, ResultStore } from './results.ports';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Writes the one immutable `api.lead.result` of an API lead whose contact reached a final state,
 * and queues its webhook deliveries in the same transaction. Idempotent: a lead that has a
 * result, a contact that is not final, or a contact that is not an API lead changes nothing.
 */
@Injectable()
export class RecordLeadResult {
  private readonly logger = new Logger('RecordLeadResult');

  constructor(
    private readonly keys: LeadKeyStore,
    private readonly intake: ApiLeadIntake,
    private readonly calls: FinalCallLookup,
    private readonly results: ResultStore,
    private readonly deliveries: DeliveryStore,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly timeline: ContactTimeline,
    private readonly inbound: InboundCampaigns,
    private readonly workspaces: WorkspaceAdministration,
    private readonly journeys: LeadJourneys,
  ) {}

  /**
   * The result id (new or existing), or null when the contact has none to write. `finalCallId`
   * is the call that ended the lead (the engine knows it); without it the result has no finalCall.
   */
  async execute(contactId: string, finalCallId: string | null = null): Promise<string | null> {
    const key = (await this.keys.firstForLead(contactId)) ?? (await this.inboundKey(contactId));
    if (!key || !key.leadId) return null;
    const existing = await this.results.idForLead(contactId);
    if (existing) return existing;
    const contact = await this.intake.findContact(key.campaignId, contactId);
    if (!contact || !isFinalLeadStatus(contact.status)) {
      this.logger.debug?.(`contact ${contactId} is not final yet; no result`);
      return null;
    }
    const final = await this.calls.finalCall(key.workspaceId, contactId, finalCallId);
    const now = this.clock.now();
    const envelope = buildLeadResult({
      resultId: randomUUID(),
      createdAt: now,
      leadId: contactId,
      campaignId: key.campaignId,
      idempotencyKey: key.idempotencyKey,
      lead: { phone: key.lead.phone, name: key.lead.name, fields: key.lead.fields },
      contactStatus: contact.status,
      lastOutcome: contact.lastOutcome,
      attempts: contact.attempts,
      connectedPhone: contact.connectedPhone,
      // A message leg records its outcome on the contact; an EMAIL leg is named EMAIL, any other message leg is WhatsApp.
      message: contact.messageOutcome === null ? null : { channel: contact.leg === 'EMAIL' ? 'EMAIL' : 'WHATSAPP', outcome: contact.messageOutcome },
      finalCall: final?.call ?? null,
      analysis: final?.analysis ?? null,
      journey: await this.journeys.journeyOf(contactId),
    });
    const expiresAt = new Date(now.getTime() + this.config.resultRetentionDays * DAY_MS);
    return this.uow.run(async () => {
      const inserted = await this.results.insert(key.workspaceId, envelope, expiresAt);
      if (!inserted) return this.results.idForLead(contactId);
      await this.timeline.record({ contactId, type: 'result_emitted', at: now, detail: { resultId: envelope.id, status: envelope.data.status } });
      const deliveryIds = await this.deliveries.createForResult(key.workspaceId, envelope.id, now);
      await this.outbox.enqueue(...deliveryIds.map(deliverJob));
      return envelope.id;
    });
  }

  /**
   * An INBOUND campaign's caller is a lead too (decisions.md 36.5) — where the workspace has API
   * results enabled (feature `api_results`, as the results routes require): its result names the
   * caller, with `inbound:<caller's E.164>` as its idempotency key (a caller is one lead per campaign:
   * contacts are unique per phone). Null otherwise: nothing is written.
   */
  private async inboundKey(contactId: string): Promise<LeadKeyRecord | null> {
    const caller = await this.inbound.findCaller(contactId);
    if (!caller) return null;
    const workspace = await this.workspaces.get(caller.workspaceId);
    if (!workspace.features.includes('api_results')) return null;
    return {
      campaignId: caller.campaignId,
      idempotencyKey: `inbound:${caller.phone}`,
      workspaceId: caller.workspaceId,
      leadId: caller.contactId,
      fingerprint: '',
      lead: { phone: caller.phone, name: caller.name, fields: caller.fields },
      response: null,
      createdAt: this.clock.now(),
    };
  }
}
