import { Injectable } from '@nestjs/common';
import { Clock } from '@outreach/core';
import { contactWaiting, dialScheduleOf, WaitingReason } from '../domain/contact-schedule';
import { ContactRecord } from '../domain/contact';
import { dialWindowAt } from '../domain/dial-window';
import { CampaignExecutionRepository } from './campaign-execution.ports';
import { WithIsoDates } from './iso-dates';

/** What a lead view holds of a contact that the waiting reason reads (dates as ISO strings). */
export type WaitingContactView = WithIsoDates<Pick<ContactRecord, 'status' | 'nextAttemptAt' | 'lastAttemptAt' | 'recipientZone' | 'recipientRegion'>>;

/** The two members a lead view gains (issue 17 item 5, decisions.md 28.5). */
export interface LeadWaiting {
  /** When the contact is expected to be tried next (ISO), or null. */
  nextAttemptAt: string | null;
  waitingReason: WaitingReason | null;
}

/**
 * Answers "why is this lead not being called, and when will it be?" at read time, from the
 * contact and its campaign (one campaign read, plus today's dial count when the campaign has a
 * daily cap): the reason itself is not stored (the contact's timeline keeps the skips the dispatcher
 * records, decisions.md 29.4, but the answer here never reads them).
 */
@Injectable()
export class ContactWaitingReasons {
  constructor(
    private readonly execution: CampaignExecutionRepository,
    private readonly clock: Clock,
  ) {}

  /** The waiting of each contact of one campaign, in order. */
  async of(campaignId: string, contacts: readonly WaitingContactView[]): Promise<LeadWaiting[]> {
    const none = (): LeadWaiting => ({ nextAttemptAt: null, waitingReason: null });
    if (contacts.length === 0) return [];
    const campaign = await this.execution.findCampaign(campaignId);
    if (!campaign) return contacts.map(none);
    const now = this.clock.now();
    const capped = campaign.status === 'RUNNING' && campaign.settings.dailyDialCap !== null;
    const dialsToday = capped ? await this.execution.dialsOn(campaignId, dialWindowAt(dialScheduleOf(campaign), now).localDay) : 0;
    return contacts.map((c) => {
      const waiting = contactWaiting(
        campaign,
        {
          status: c.status,
          nextAttemptAt: c.nextAttemptAt ? new Date(c.nextAttemptAt) : null,
          lastAttemptAt: c.lastAttemptAt ? new Date(c.lastAttemptAt) : null,
          recipientZone: c.recipientZone,
          recipientRegion: c.recipientRegion,
        },
        now,
        dialsToday,
      );
      return { nextAttemptAt: waiting.nextAttemptAt?.toISOString() ?? null, waitingReason: waiting.waitingReason };
    });
  }
}
