import { CampaignProps } from '../domain/campaign.aggregate';
import { ContactRecord } from '../domain/contact';
import { ContactStatus } from '../domain/contact-state-machine';
import { ContactLeg } from '../domain/contact-legs';
import { RecipientLocale } from '../domain/recipient-locale';

/**
 * What the execution engine reads of a campaign: its whole record, read through the campaigns
 * table definition like the aggregate (a new campaign field reaches the engine with no change here).
 */
export type ExecutionCampaign = Readonly<CampaignProps>;

/** One campaign's share of a workspace's lines: RUNNING campaigns, and any campaign with attempts in flight. */
export interface CampaignLoad extends Pick<CampaignProps, 'status' | 'reservedConcurrency' | 'allowBurst'> {
  campaignId: string;
  inFlight: number;
  /** Of those, attempts after a contact's first (claimed from RETRY_SCHEDULED: retries, follow-ups, churn re-contacts). */
  retriesInFlight: number;
}

/** A contact just claimed for an attempt (IN_PROGRESS, attempts + 1, attemptSeq + 1). */
export type ClaimedContact = Pick<ContactRecord, 'id' | 'phone' | 'altPhones' | 'phoneIndex' | 'attempts' | 'attemptSeq'>;

/** What an attempt reads of its contact. */
export const ATTEMPT_CONTACT_FIELDS = [
  'id',
  'campaignId',
  'workspaceId',
  'phone',
  'altPhones',
  'phoneIndex',
  'phoneFirstAttempt',
  'name',
  'fields',
  'status',
  'attempts',
  'attemptSeq',
  'currentCallId',
  'incompleteRetries',
  'attemptStartedAt',
  'attemptDeadlineAt',
  'followups',
  'churnRounds',
  'referralDepth',
  'leg',
  'messageSends',
  'messageTransient',
  'messageLegAt',
  'messageOutcome',
  'followupCallId',
] as const satisfies ReadonlyArray<keyof ContactRecord>;

/** A contact as an attempt sees it (read under its row lock). */
export type AttemptContact = Pick<ContactRecord, (typeof ATTEMPT_CONTACT_FIELDS)[number]>;

/** Where an attempt leaves its contact. */
export interface AttemptOutcomeUpdate {
  status: Extract<ContactStatus, 'COMPLETED' | 'FAILED' | 'RETRY_SCHEDULED'>;
  nextAttemptAt: Date | null;
  lastOutcome: string;
  /** When the attempt ended (the cooldown counts from here). */
  lastAttemptAt: Date;
  /** This retry is an incomplete-call retry (counted separately from retryCount). */
  incompleteRetry: boolean;
  /** The retry moves on to the contact's next alternate number, with attempts of its own (decisions.md 16.19). */
  nextNumber: boolean;
  /** The number a person answered on (set when the attempt connected, else left as it was). */
  connectedPhone: string | null;
  /** The retry is a follow-up of an interested lead or a churn re-contact (counted on their own, decisions.md 35.3, 35.4). */
  sequence?: 'followup' | 'churn' | null;
  /** The call's talk time, ms (finish-interrupted reads it, decisions.md 35.2). */
  talkMs?: number | null;
  /**
   * The contact's message-leg state after this attempt (decisions.md 33), written as given; absent:
   * left as it was. `switchLeg` starts the new leg's attempts from here (as a next number does).
   */
  legState?: {
    leg: ContactLeg | null;
    messageSends: number;
    messageTransient: number;
    messageLegAt: Date | null;
    messageOutcome: string | null;
    followupCallId: string | null;
    switchLeg: boolean;
  };
}

/** What a claim takes: see CampaignExecutionRepository.claimDue. */
export interface ClaimInput {
  now: Date;
  limit: number;
  cooldownMs: number;
  deadlineAt: Date;
  /**
   * Recipient hours (decisions.md 28.4): only contacts whose locale key (`localeKey`) is one of
   * these — the locales open now. Absent or null: any contact.
   */
  openLocales?: readonly string[] | null;
  /**
   * retryConcurrencyPercent (decisions.md 35.7): at most this many due retries while first dials
   * are due too; retries fill the lines first dials leave. Absent: retries first, up to `limit`.
   */
  retryLimit?: number;
  /**
   * Mixed channels (decisions.md 33): only contacts whose next attempt runs this leg; `first` when
   * it is the channel's first leg (contacts not moved to another leg run it). Absent: any contact.
   */
  leg?: { wanted: ContactLeg; first: boolean } | null;
}

/** How much work a campaign has left. */
export interface CampaignWork {
  pending: boolean;
  inFlight: boolean;
  /** Earliest next_attempt_at of its RETRY_SCHEDULED contacts. */
  nextRetryAt: Date | null;
}

export abstract class CampaignExecutionRepository {
  abstract findCampaign(campaignId: string): Promise<ExecutionCampaign | null>;
  /** Serialises dispatch (and reservation changes) of one workspace until the transaction ends. */
  abstract lockWorkspace(workspaceId: string): Promise<void>;
  abstract workspaceLoad(workspaceId: string): Promise<CampaignLoad[]>;
  /**
   * Claims up to `limit` due contacts — RETRY_SCHEDULED with next_attempt_at ≤ now first, then
   * PENDING in upload order — whose last attempt ended at least `cooldownMs` ago, with
   * FOR UPDATE SKIP LOCKED, marking them IN_PROGRESS.
   */
  abstract claimDue(campaignId: string, input: ClaimInput): Promise<ClaimedContact[]>;
  /**
   * Ids of up to `limit` contacts due now, in claim order (due retries first, then PENDING by
   * upload order), without claiming them: those a block (window, cap, budget…) keeps waiting.
   * With `locales` (locale keys, as `localeKey`): only contacts of those recipient locales.
   */
  abstract dueIds(campaignId: string, now: Date, limit: number, locales?: readonly string[] | null): Promise<string[]>;
  /** How many contacts the campaign has (its sharded count: one cheap read). */
  abstract contactCount(campaignId: string): Promise<number>;
  /** The distinct recipient locales among the campaign's contacts with work left (PENDING, RETRY_SCHEDULED). */
  abstract recipientLocales(campaignId: string): Promise<RecipientLocale[]>;
  /** The earliest scheduled retry due after `now` (retry_due_idx), or null. */
  abstract nextRetryAfter(campaignId: string, now: Date): Promise<Date | null>;
  /** The distinct recipient locales among the contacts due at `now` (PENDING, or RETRY_SCHEDULED due by then). */
  abstract dueLocales(campaignId: string, now: Date): Promise<RecipientLocale[]>;
  abstract dialsOn(campaignId: string, day: string): Promise<number>;
  abstract addDials(campaignId: string, day: string, count: number): Promise<void>;
  /** Messages a campaign sent (message attempts started) on a local day: the dailyMessageCap counter. */
  abstract messagesOn(campaignId: string, day: string): Promise<number>;
  abstract addMessages(campaignId: string, day: string, count: number): Promise<void>;
  abstract work(campaignId: string): Promise<CampaignWork>;
  abstract lockContact(contactId: string): Promise<AttemptContact | null>;
  /** Several contacts under their row locks, taken in id order (so two batches never deadlock); missing ids are left out. */
  abstract lockContacts(contactIds: readonly string[]): Promise<AttemptContact[]>;
  abstract markCallStarted(contactId: string, attemptSeq: number, callId: string): Promise<void>;
  /** markCallStarted of several contacts (each at most once) in one statement (decisions.md 16.32). */
  abstract markCallsStarted(started: ReadonlyArray<{ contactId: string; attemptSeq: number; callId: string }>): Promise<void>;
  /** False when the contact is no longer IN_PROGRESS with this attemptSeq (nothing changes). */
  abstract recordOutcome(contactId: string, attemptSeq: number, update: AttemptOutcomeUpdate): Promise<boolean>;
  /** recordOutcome of several contacts (each at most once) in one statement: answers the ids that moved. */
  abstract recordOutcomes(outcomes: ReadonlyArray<{ contactId: string; attemptSeq: number; update: AttemptOutcomeUpdate }>): Promise<Set<string>>;
  /** Gives an attempt that never dialled back: due again now, the attempt not counted. */
  abstract release(contactId: string, attemptSeq: number, now: Date): Promise<void>;
  /**
   * The attempt did not dial: its number is on the do-not-call list but the contact has another
   * number; it moves on to that one, due at once, the attempt not counted (decisions.md 16.19).
   */
  abstract skipToNextNumber(contacts: ReadonlyArray<{ id: string; attemptSeq: number }>, now: Date): Promise<void>;
  /** The attempt did not dial: the number is on the do-not-call list. */
  abstract markDoNotCall(contacts: ReadonlyArray<{ id: string; attemptSeq: number }>): Promise<void>;
  abstract findStuck(now: Date, limit: number): Promise<Array<{ contactId: string; attemptSeq: number }>>;
  /**
   * Claims running `leg` (their own, else their channel's first) with no call yet, made before
   * `claimedBefore`, oldest first: their attempt job may be lost (decisions.md 16.30).
   */
  abstract findUndialled(leg: ContactLeg, claimedBefore: Date, limit: number): Promise<Array<{ contactId: string; attemptSeq: number }>>;
  /**
   * Attempts whose call was placed (a current call id), claimed before `claimedBefore`, in claim
   * order after `after`: the live calls whose provider events may be overdue (decisions.md 16.44).
   */
  abstract findPlacedCalls(claimedBefore: Date, after: PlacedCall | null, limit: number): Promise<PlacedCall[]>;
  abstract runningCampaignIds(workspaceId?: string): Promise<string[]>;
}

/** An attempt IN_PROGRESS on a call it placed. */
export interface PlacedCall {
  contactId: string;
  attemptSeq: number;
  callId: string;
  claimedAt: Date;
}
