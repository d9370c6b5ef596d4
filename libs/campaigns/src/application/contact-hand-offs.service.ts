import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@outreach/core';
import { CAMPAIGN_CHANNELS, CampaignChannel, CampaignSource } from '../domain/campaign-kinds';
import { channelHasRules } from '../domain/outreach-rules';
import type { OutreachRule } from '../domain/campaign-settings';
import { CampaignStatus } from '../domain/campaign-state-machine';
import { allowedFrom, ContactStatus, FINAL_CONTACT_STATUSES, IN_FLIGHT_STATUS } from '../domain/contact-state-machine';
import { ContactTimeline } from './contact-timeline';

/** A campaign contact a reply from `phone` may concern, with its campaign's rules. */
export interface ReplyCandidate {
  contactId: string;
  campaignId: string;
  campaignStatus: CampaignStatus;
  channel: CampaignChannel;
  source: CampaignSource;
  contactStatus: ContactStatus;
  outreachRules: OutreachRule[];
}

export abstract class HandOffStore {
  /**
   * Contacts with this phone in the workspace's campaigns that have a WhatsApp leg, outreach rules
   * and have started (not DRAFT, not CANCELED), newest campaign first.
   */
  abstract candidates(workspaceId: string, phone: string, channels: readonly CampaignChannel[]): Promise<ReplyCandidate[]>;
  /** The phones among these that have at least one candidate (one read for a batch of replies). */
  abstract phonesWithCandidates(workspaceId: string, phones: readonly string[], channels: readonly CampaignChannel[]): Promise<Set<string>>;
  /** The contact's status, its row locked for the transaction; null when it is gone. */
  abstract lockStatus(contactId: string): Promise<ContactStatus | null>;
  /** Moves the contact to HAND_OFF from one of `from`; false when it was in none of them. */
  abstract handOff(contactId: string, from: readonly ContactStatus[], to: ContactStatus): Promise<boolean>;
}

export type HandOffOutcome =
  /** Done: the contact is HAND_OFF now; `becameFinal` when it had work left (an API lead's result is due). */
  | { outcome: 'handed_off'; from: ContactStatus; becameFinal: boolean }
  /** An attempt of the contact is in flight: try again once it has settled. */
  | { outcome: 'in_flight' }
  /** Already HAND_OFF, or in a status nothing hands off from (DO_NOT_CALL), or gone. */
  | { outcome: 'unchanged' };

const CHANNELS_WITH_RULES: readonly CampaignChannel[] = CAMPAIGN_CHANNELS.filter(channelHasRules);

/**
 * Outreach rules' HAND_OFF on the campaigns side (decisions.md 34.4): which contacts a reply
 * concerns, and the contact transition `handOff` (CONTACT_TRANSITIONS) with its timeline event, in
 * the caller's transaction. The engine judges the reply and writes the jobs that follow.
 */
@Injectable()
export class ContactHandOffs {
  constructor(
    private readonly store: HandOffStore,
    private readonly timeline: ContactTimeline,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  candidates(workspaceId: string, phone: string): Promise<ReplyCandidate[]> {
    return this.store.candidates(workspaceId, phone, CHANNELS_WITH_RULES);
  }

  /**
   * The phones among these that some started campaign with a WhatsApp leg and outreach rules has
   * as a contact: a reply from any other phone has nothing to judge (decisions.md 47.7).
   */
  phonesWithCandidates(workspaceId: string, phones: readonly string[]): Promise<Set<string>> {
    return this.store.phonesWithCandidates(workspaceId, phones, CHANNELS_WITH_RULES);
  }

  /** Hands the contact off (joins the caller's transaction); `detail` goes to the timeline event. */
  handOff(contactId: string, detail: Record<string, unknown>): Promise<HandOffOutcome> {
    return this.uow.run(async () => {
      const status = await this.store.lockStatus(contactId);
      if (status === null) return { outcome: 'unchanged' };
      if (status === IN_FLIGHT_STATUS) return { outcome: 'in_flight' };
      if (!allowedFrom('handOff').includes(status)) return { outcome: 'unchanged' };
      if (!(await this.store.handOff(contactId, allowedFrom('handOff'), 'HAND_OFF'))) return { outcome: 'unchanged' };
      await this.timeline.record({ contactId, type: 'handed_off', at: this.clock.now(), detail: { ...detail, from: status } });
      return { outcome: 'handed_off', from: status, becameFinal: !FINAL_CONTACT_STATUSES.includes(status) };
    });
  }
}
