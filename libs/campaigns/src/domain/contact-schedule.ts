import { CampaignProps } from './campaign.aggregate';
import { ContactStatus } from './contact-state-machine';
import { DialSchedule, dialWindowAt, startOfNextLocalDay } from './dial-window';
import { nextContactOpening, recipientClosureAt, recipientRulesOf } from './recipient-hours';
import { RecipientLocale } from './recipient-locale';

/**
 * Why a contact with work left is not being called, and when it is expected to be tried next
 * (issue 17 item 5, decisions.md 28.5): derived when a lead is read, from the contact and its
 * campaign, with no state of its own. The closed set of reasons, in the order they are judged:
 */
export const WAITING_REASONS = [
  /** The campaign is a DRAFT: it has not been started. */
  'campaign_not_started',
  /** COMPLETED or CANCELED: the contact will not be tried in this run. */
  'campaign_ended',
  /** Paused by a person or by the service (pauseReason), other than the circuit breaker and the spend guard. */
  'campaign_paused',
  /** Paused by the circuit breaker (pauseReason circuit_open, decisions.md 16.26). */
  'circuit_open',
  /** Paused by the spend guard: the campaign's budget fits no more calls (pauseReason budget_reached, decisions.md 29.1). */
  'budget_reached',
  /** The workspace's credit ran out (CREDIT_EXHAUSTED). */
  'credit_exhausted',
  /** A retry is scheduled for later (nextAttemptAt). */
  'retry_scheduled',
  /** The least gap between two attempts of a contact (cooldownMinutes) has not passed. */
  'cooldown',
  /** Outside the campaign's daily window, dial days or schedule (campaign timezone). */
  'outside_campaign_window',
  /** The campaign's daily dial cap is used up for today. */
  'daily_cap',
  /** Outside the recipient's own calling hours (recipientHours, recipient-local). */
  'outside_recipient_hours',
  /** A public holiday in the recipient's region, recipient-local (skipHolidays). */
  'holiday',
] as const;

export type WaitingReason = (typeof WAITING_REASONS)[number];

/** What the waiting reason reads of a campaign. */
export type ScheduleCampaign = Pick<CampaignProps, 'status' | 'pauseReason' | 'timezone' | 'scheduledStartAt' | 'scheduledEndAt' | 'settings'>;

/** What the waiting reason reads of a contact. */
export interface ScheduleContact {
  status: ContactStatus;
  /** A scheduled retry's due time (stored). */
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  recipientZone: string | null;
  recipientRegion: string | null;
}

export interface ContactWaiting {
  /** When the contact is expected to be tried next (now when it is due and waits only for a line); null when unknown or never. */
  nextAttemptAt: Date | null;
  /** Null when the contact is not waiting (in flight, final, or due now). */
  waitingReason: WaitingReason | null;
}

const CAMPAIGN_STATUS_REASONS: Partial<Record<CampaignProps['status'], WaitingReason>> = {
  DRAFT: 'campaign_not_started',
  COMPLETED: 'campaign_ended',
  CANCELED: 'campaign_ended',
  CREDIT_EXHAUSTED: 'credit_exhausted',
};

/** The service's pause reasons a lead's waitingReason names as they are (decisions.md 16.26, 29.1); any other pause is campaign_paused. */
const NAMED_PAUSE_REASONS: ReadonlySet<string> = new Set<WaitingReason>(['circuit_open', 'budget_reached']);

export function dialScheduleOf(campaign: Pick<CampaignProps, 'timezone' | 'scheduledStartAt' | 'scheduledEndAt' | 'settings'>): DialSchedule {
  return {
    timezone: campaign.timezone,
    dailyWindowStart: campaign.settings.dailyWindowStart,
    dailyWindowEnd: campaign.settings.dailyWindowEnd,
    dialDays: campaign.settings.dialDays,
    scheduledStartAt: campaign.scheduledStartAt,
    scheduledEndAt: campaign.scheduledEndAt,
  };
}

export function localeOf(contact: Pick<ScheduleContact, 'recipientZone' | 'recipientRegion'>): RecipientLocale {
  return { zone: contact.recipientZone, region: contact.recipientRegion };
}

/**
 * The contact's waiting reason and expected next attempt at `now`. `dialsToday` is the campaign's
 * dial count on its current local day (only read when it has a daily cap).
 */
export function contactWaiting(campaign: ScheduleCampaign, contact: ScheduleContact, now: Date, dialsToday: number): ContactWaiting {
  if (contact.status !== 'PENDING' && contact.status !== 'RETRY_SCHEDULED') return { nextAttemptAt: null, waitingReason: null };
  if (campaign.status === 'PAUSED') {
    const named = campaign.pauseReason !== null && NAMED_PAUSE_REASONS.has(campaign.pauseReason);
    return { nextAttemptAt: null, waitingReason: named ? (campaign.pauseReason as WaitingReason) : 'campaign_paused' };
  }
  const byStatus = CAMPAIGN_STATUS_REASONS[campaign.status];
  if (byStatus) return { nextAttemptAt: null, waitingReason: byStatus };

  const settings = campaign.settings;
  const schedule = dialScheduleOf(campaign);
  const rules = recipientRulesOf(settings);
  const locale = localeOf(contact);
  const retryAt = contact.status === 'RETRY_SCHEDULED' ? contact.nextAttemptAt : null;
  const cooledAt = contact.lastAttemptAt ? new Date(contact.lastAttemptAt.getTime() + settings.cooldownMinutes * 60_000) : null;
  const capReached = settings.dailyDialCap !== null && dialsToday >= settings.dailyDialCap;

  let dueFrom = now;
  for (const at of [retryAt, cooledAt]) if (at && at.getTime() > dueFrom.getTime()) dueFrom = at;
  if (capReached) {
    const tomorrow = startOfNextLocalDay(campaign.timezone, now);
    if (tomorrow.getTime() > dueFrom.getTime()) dueFrom = tomorrow;
  }
  const nextAttemptAt = nextContactOpening(schedule, rules, locale, dueFrom);

  let waitingReason: WaitingReason | null = null;
  if (retryAt && retryAt.getTime() > now.getTime()) waitingReason = 'retry_scheduled';
  else if (cooledAt && cooledAt.getTime() > now.getTime()) waitingReason = 'cooldown';
  else if (!dialWindowAt(schedule, now).open) waitingReason = 'outside_campaign_window';
  else if (capReached) waitingReason = 'daily_cap';
  else if (rules) waitingReason = recipientClosureAt(rules, locale, campaign.timezone, now);
  return { nextAttemptAt, waitingReason };
}
