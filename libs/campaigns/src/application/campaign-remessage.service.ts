import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, Outbox, OutboxJob, UnitOfWork } from '@outreach/core';
import { ExecutionCampaign } from './campaign-execution.ports';
import { CampaignExecution } from './campaign-execution.service';
import { ContactStatus } from '../domain/contact-state-machine';
import { CampaignJob, CampaignQueue, RemessagePayload } from './campaign-jobs';
import { CampaignRepository, ContactRepository, ContactView } from './campaigns.ports';

/** Contacts a remessage reaches without a list: those whose automated run is over (decisions.md 34.6). */
export const REMESSAGE_STATUSES: readonly ContactStatus[] = ['COMPLETED', 'FAILED'];
/** Contacts a remessage never reaches: a person has them (HAND_OFF), or they asked not to be contacted. */
const NEVER_REMESSAGED: readonly ContactStatus[] = ['HAND_OFF', 'DO_NOT_CALL'];
const PAGE = 500;

export interface RemessageReceipt {
  remessageId: string;
  /** Contacts a message job was written for. */
  queued: number;
  /** Contacts named in the request that are HAND_OFF or DO_NOT_CALL. */
  skipped: number;
}

export function remessageJob(payload: RemessagePayload): OutboxJob {
  return {
    queue: CampaignQueue.Outreach,
    name: CampaignJob.RemessageContact,
    payload: { ...payload },
    jobId: `remessage-${payload.remessageId}-${payload.contactId}`,
  };
}

/**
 * POST /campaigns/{id}/remessage (decisions.md 34.6): the campaign's message leg (its WhatsApp
 * outreach template) sent again to its contacts — those named, or every COMPLETED and FAILED one —
 * except HAND_OFF and DO_NOT_CALL contacts. One outbox job per contact in the request's
 * transaction; the engine sends each (idempotent on the remessage id and the contact).
 */
@Injectable()
export class CampaignRemessage {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly contacts: ContactRepository,
    private readonly execution: CampaignExecution,
    private readonly outbox: Outbox,
    private readonly uow: UnitOfWork,
  ) {}

  async request(workspaceId: string, id: string, contactIds?: readonly string[]): Promise<RemessageReceipt> {
    return this.uow.run(async () => {
      const campaign = await this.campaigns.findByIdForUpdate(workspaceId, id);
      if (!campaign) throw new AppError('campaign_not_found', { message: `no campaign ${id}` });
      campaign.assertCanRemessage();
      const remessageId = randomUUID();
      const targets: ContactView[] = [];
      let skipped = 0;
      if (contactIds) {
        for (const contactId of new Set(contactIds)) {
          const contact = await this.contacts.findById(id, contactId);
          if (!contact) throw new AppError('contact_not_found', { message: `no contact ${contactId} in campaign ${id}` });
          if (NEVER_REMESSAGED.includes(contact.status)) skipped += 1;
          else targets.push(contact);
        }
      } else {
        for (const status of REMESSAGE_STATUSES) {
          for (let offset = 0; ; offset += PAGE) {
            const page = await this.contacts.list(id, { offset, limit: PAGE, status });
            targets.push(...page.items);
            if (page.items.length < PAGE) break;
          }
        }
      }
      await this.outbox.enqueue(...targets.map((c) => remessageJob({ campaignId: id, contactId: c.id, remessageId })));
      return { remessageId, queued: targets.length, skipped };
    });
  }

  /**
   * What the engine's send needs, read when it runs: the campaign, and the contact unless a person
   * has it by now (HAND_OFF) or it is DO_NOT_CALL — then null, and nothing is sent.
   */
  async target(campaignId: string, contactId: string): Promise<{ campaign: ExecutionCampaign; contact: ContactView } | null> {
    const campaign = await this.execution.campaign(campaignId);
    const contact = campaign ? await this.contacts.findById(campaignId, contactId) : null;
    if (!campaign || !contact || NEVER_REMESSAGED.includes(contact.status)) return null;
    return { campaign, contact };
  }
}
