import { Injectable } from '@nestjs/common';
import { Clock, normalisePhone, Outbox, UnitOfWork } from '@outreach/core';
import { campaignEventJob, CampaignNotificationEvent } from '@outreach/notifications';
import { Campaign } from '../domain/campaign.aggregate';
import { LIST_SOURCES } from '../domain/campaign-kinds';
import { numbersLeftAfter } from '../domain/contact';
import { ContactLeg } from '../domain/contact-legs';
import { CONTACT_STATUSES, FINAL_CONTACT_STATUSES } from '../domain/contact-state-machine';

const NOT_FINAL_STATUSES = CONTACT_STATUSES.filter((status) => !FINAL_CONTACT_STATUSES.includes(status));
import {
  AttemptContact,
  AttemptOutcomeUpdate,
  CampaignExecutionRepository,
  CampaignLoad,
  CampaignWork,
  ClaimInput,
  ClaimedContact,
  ExecutionCampaign,
  PlacedCall,
} from './campaign-execution.ports';
import { RecipientLocale } from '../domain/recipient-locale';
import { CampaignPhoneNumberRepository, CampaignRepository, ContactRepository } from './campaigns.ports';
import { referralsAllowed } from '../domain/referrals';

/**
 * What the execution engine (libs/engine) may do to campaigns and their contacts: read a
 * campaign's run settings, claim due contacts, record attempt outcomes, and raise the automatic
 * transitions (complete, exhaustCredit, a pause by the service) through the aggregate. Methods that
 * must be atomic with the engine's other writes join the caller's UnitOfWork transaction. Each
 * automatic transition writes the campaign's notification job (decisions.md 13.13) in the same
 * transaction, for the members named in its notificationUserIds.
 */
@Injectable()
export class CampaignExecution {
  constructor(
    private readonly execution: CampaignExecutionRepository,
    private readonly campaigns: CampaignRepository,
    private readonly numbers: CampaignPhoneNumberRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly contacts: ContactRepository,
  ) {}

  campaign(campaignId: string): Promise<ExecutionCampaign | null> {
    return this.execution.findCampaign(campaignId);
  }

  /** Inside a transaction: serialises slot counting and claiming for the workspace (and reservation changes). */
  lockWorkspace(workspaceId: string): Promise<void> {
    return this.execution.lockWorkspace(workspaceId);
  }

  workspaceLoad(workspaceId: string): Promise<CampaignLoad[]> {
    return this.execution.workspaceLoad(workspaceId);
  }

  claimDue(campaignId: string, input: ClaimInput): Promise<ClaimedContact[]> {
    return this.execution.claimDue(campaignId, input);
  }

  /** Up to `limit` contacts due now, in claim order, left as they are (for their timeline's skip events). */
  dueIds(campaignId: string, now: Date, limit: number, locales?: readonly string[] | null): Promise<string[]> {
    return this.execution.dueIds(campaignId, now, limit, locales);
  }

  contactCount(campaignId: string): Promise<number> {
    return this.execution.contactCount(campaignId);
  }

  /** The distinct recipient locales among the campaign's contacts with work left (decisions.md 28.4). */
  recipientLocales(campaignId: string): Promise<RecipientLocale[]> {
    return this.execution.recipientLocales(campaignId);
  }

  nextRetryAfter(campaignId: string, now: Date): Promise<Date | null> {
    return this.execution.nextRetryAfter(campaignId, now);
  }

  /** The distinct recipient locales among the contacts due at `now`. */
  dueLocales(campaignId: string, now: Date): Promise<RecipientLocale[]> {
    return this.execution.dueLocales(campaignId, now);
  }

  dialsOn(campaignId: string, day: string): Promise<number> {
    return this.execution.dialsOn(campaignId, day);
  }

  addDials(campaignId: string, day: string, count: number): Promise<void> {
    return this.execution.addDials(campaignId, day, count);
  }

  messagesOn(campaignId: string, day: string): Promise<number> {
    return this.execution.messagesOn(campaignId, day);
  }

  addMessages(campaignId: string, day: string, count: number): Promise<void> {
    return this.execution.addMessages(campaignId, day, count);
  }

  work(campaignId: string): Promise<CampaignWork> {
    return this.execution.work(campaignId);
  }

  /** The campaign's numbers, in attach order. */
  phoneNumberIds(campaignId: string): Promise<string[]> {
    return this.numbers.listIds(campaignId);
  }

  /** The contact under its row lock (inside a transaction). */
  lockContact(contactId: string): Promise<AttemptContact | null> {
    return this.execution.lockContact(contactId);
  }

  /** Contacts under their row locks (inside a transaction), taken in id order. */
  lockContacts(contactIds: readonly string[]): Promise<AttemptContact[]> {
    return this.execution.lockContacts(contactIds);
  }

  markCallStarted(contactId: string, attemptSeq: number, callId: string): Promise<void> {
    return this.execution.markCallStarted(contactId, attemptSeq, callId);
  }

  markCallsStarted(started: ReadonlyArray<{ contactId: string; attemptSeq: number; callId: string }>): Promise<void> {
    return this.execution.markCallsStarted(started);
  }

  recordOutcome(contactId: string, attemptSeq: number, update: AttemptOutcomeUpdate): Promise<boolean> {
    return this.execution.recordOutcome(contactId, attemptSeq, update);
  }

  /** recordOutcome of several contacts (each at most once) in one statement: answers the ids that moved. */
  recordOutcomes(outcomes: ReadonlyArray<{ contactId: string; attemptSeq: number; update: AttemptOutcomeUpdate }>): Promise<Set<string>> {
    return this.execution.recordOutcomes(outcomes);
  }

  release(contactId: string, attemptSeq: number): Promise<void> {
    return this.execution.release(contactId, attemptSeq, this.clock.now());
  }

  markDoNotCall(contacts: ReadonlyArray<{ id: string; attemptSeq: number }>): Promise<void> {
    return this.execution.markDoNotCall(contacts);
  }

  /**
   * Claimed attempts whose number is on the do-not-call list (decisions.md 16.19): a contact with
   * another number moves on to it (due at once, the attempt not counted); the others end
   * DO_NOT_CALL. Returns those that ended (final: an API lead's result is due).
   */
  async numberListed<T extends Pick<ClaimedContact, 'id' | 'attemptSeq' | 'altPhones' | 'phoneIndex'>>(contacts: readonly T[]): Promise<T[]> {
    const moving = contacts.filter((c) => numbersLeftAfter(c) > 0);
    const ending = contacts.filter((c) => numbersLeftAfter(c) === 0);
    await this.execution.skipToNextNumber(moving.map(({ id, attemptSeq }) => ({ id, attemptSeq })), this.clock.now());
    await this.execution.markDoNotCall(ending.map(({ id, attemptSeq }) => ({ id, attemptSeq })));
    return ending;
  }

  /**
   * Referral contacts (decisions.md 35.6): the numbers a person gave on the call of `parent` join the
   * campaign as new PENDING contacts one level deeper, while the parent's depth is below
   * referralMaxDepth and the campaign's contacts come from a list (CSV, CRM_MANUAL). Numbers are
   * normalised like an upload's; invalid ones and numbers the campaign has are dropped. Joins the
   * caller's transaction; returns how many were added.
   */
  async addReferrals(campaign: ExecutionCampaign, parent: { id: string; referralDepth: number }, numbers: readonly string[]): Promise<number> {
    if (numbers.length === 0 || !referralsAllowed(campaign, parent.referralDepth)) return 0;
    const phones = [...new Set(numbers.map((n) => normalisePhone(n, campaign.countryCode)).filter((p): p is string => p !== null))];
    return this.contacts.insertMany(
      campaign.workspaceId,
      campaign.id,
      phones.map((phone) => ({ phone, altPhones: [], name: null, fields: {}, referral: { depth: parent.referralDepth + 1, referredBy: parent.id } })),
    );
  }

  findStuck(now: Date, limit: number): Promise<Array<{ contactId: string; attemptSeq: number }>> {
    return this.execution.findStuck(now, limit);
  }

  findUndialled(leg: ContactLeg, claimedBefore: Date, limit: number): Promise<Array<{ contactId: string; attemptSeq: number }>> {
    return this.execution.findUndialled(leg, claimedBefore, limit);
  }

  /** Attempts on a placed call claimed before `claimedBefore`, in claim order after `after` (decisions.md 16.44). */
  findPlacedCalls(claimedBefore: Date, after: PlacedCall | null, limit: number): Promise<PlacedCall[]> {
    return this.execution.findPlacedCalls(claimedBefore, after, limit);
  }

  runningCampaignIds(workspaceId?: string): Promise<string[]> {
    return this.execution.runningCampaignIds(workspaceId);
  }

  /**
   * RUNNING → COMPLETED when scheduledEndAt has passed, or (CSV / CRM_MANUAL sources) when every
   * contact is final. Checked under the campaign's row lock; true when it completed.
   */
  completeIfDone(campaignId: string): Promise<boolean> {
    return this.uow.run(async () => {
      const campaign = await this.lockRunning(campaignId);
      if (!campaign) return false;
      const now = this.clock.now();
      const p = campaign.toProps();
      const ended = p.scheduledEndAt !== null && p.scheduledEndAt.getTime() <= now.getTime();
      let allFinal = false;
      if (!ended && LIST_SOURCES.includes(p.source)) {
        const work = await this.execution.work(campaignId);
        allFinal = !work.pending && !work.inFlight && work.nextRetryAt === null;
        // A journey campaign's parked contacts are not due (their runs wait or message): it completes once every one is final (decisions.md 37.12).
        if (allFinal && p.channel === 'CUSTOM') allFinal = (await this.contacts.count(campaignId, NOT_FINAL_STATUSES)) === 0;
      }
      if (!ended && !allFinal) return false;
      campaign.complete(now);
      await this.campaigns.update(campaign);
      await this.notify(campaign, 'campaign_completed', null, now);
      return true;
    });
  }

  /** Wallet dry and no trial: every RUNNING campaign of the workspace → CREDIT_EXHAUSTED. Returns their ids. */
  exhaustCredit(workspaceId: string): Promise<string[]> {
    return this.uow.run(async () => {
      const now = this.clock.now();
      const exhausted: string[] = [];
      for (const id of await this.execution.runningCampaignIds(workspaceId)) {
        const campaign = await this.campaigns.findByIdForUpdate(workspaceId, id);
        if (!campaign || campaign.status !== 'RUNNING') continue;
        campaign.exhaustCredit(now);
        await this.campaigns.update(campaign);
        await this.notify(campaign, 'campaign_credit_exhausted', null, now);
        exhausted.push(id);
      }
      return exhausted;
    });
  }

  /**
   * RUNNING → PAUSED by the service, because the campaign cannot go on as configured (`reason`, a
   * snake_case word such as no_usable_caller_id). In-flight attempts finish; the members named in
   * notificationUserIds are told why. True when it paused.
   */
  pauseForService(campaignId: string, reason: string): Promise<boolean> {
    return this.uow.run(async () => {
      const campaign = await this.lockRunning(campaignId);
      if (!campaign) return false;
      const now = this.clock.now();
      campaign.pause(now, reason);
      await this.campaigns.update(campaign);
      await this.notify(campaign, 'campaign_paused', reason, now);
      return true;
    });
  }

  /** Inside a transaction: the campaign under its row lock when it is RUNNING, else null. */
  private async lockRunning(campaignId: string): Promise<Campaign | null> {
    const snapshot = await this.execution.findCampaign(campaignId);
    if (!snapshot || snapshot.status !== 'RUNNING') return null;
    const campaign = await this.campaigns.findByIdForUpdate(snapshot.workspaceId, campaignId);
    return campaign && campaign.status === 'RUNNING' ? campaign : null;
  }

  private async notify(campaign: Campaign, event: CampaignNotificationEvent, reason: string | null, at: Date): Promise<void> {
    const p = campaign.toProps();
    const memberIds = p.settings.notificationUserIds;
    if (memberIds.length === 0) return;
    await this.outbox.enqueue(
      campaignEventJob({ workspaceId: p.workspaceId, campaignId: p.id, campaignName: p.name, event, reason, occurredAt: at.toISOString(), memberIds: [...memberIds] }),
    );
  }
}
