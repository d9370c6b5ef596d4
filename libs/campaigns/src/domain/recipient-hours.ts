import { DateTime } from 'luxon';
import { DialSchedule, nextDialOpening } from './dial-window';
import { isPublicHoliday, RecipientLocale } from './recipient-locale';

/**
 * Recipient-local calling hours and public holidays (issue 17, decisions.md 28): on top of the
 * campaign's own window, each contact is called only inside its recipient's hours, in the
 * recipient's zone, and (with `skipHolidays`) never on a public holiday of the recipient's region.
 */

/** The `recipientHours` setting: "off", or a window HH:MM–HH:MM (start before end) in the recipient's local time. */
export type RecipientHoursSetting = 'off' | { start: string; end: string };

/** The default: the common legal window, 08:00–21:00 recipient-local (decisions.md 28.1). */
export const DEFAULT_RECIPIENT_HOURS: Readonly<{ start: string; end: string }> = Object.freeze({ start: '08:00', end: '21:00' });

/** A campaign's recipient rules; null from `recipientRulesOf` when neither hours nor holidays apply. */
export interface RecipientRules {
  /** Minutes since local midnight [start, end); null: any hour. */
  hours: { start: number; end: number } | null;
  skipHolidays: boolean;
}

/** Why a contact that is otherwise due is not called at an instant (its recipient's side). */
export type RecipientClosure = 'outside_recipient_hours' | 'holiday';

/** How far ahead an opening is looked for (a holiday season plus the campaign's closed days fit easily). */
const HORIZON_DAYS = 40;

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

function minutesOf(hhmm: string): number {
  const match = HHMM.exec(hhmm);
  return match ? Number(match[1]) * 60 + Number(match[2]) : 0;
}

export function recipientRulesOf(settings: { recipientHours: RecipientHoursSetting; skipHolidays: boolean }): RecipientRules | null {
  const hours = settings.recipientHours === 'off' ? null : { start: minutesOf(settings.recipientHours.start), end: minutesOf(settings.recipientHours.end) };
  if (!hours && !settings.skipHolidays) return null;
  return { hours, skipHolidays: settings.skipHolidays };
}

/** The zone a contact's hours are read in: its own, else the campaign's; UTC when neither is a valid zone. */
export function recipientZone(locale: RecipientLocale, campaignZone: string): string {
  for (const zone of [locale.zone, campaignZone]) {
    if (zone && DateTime.local().setZone(zone).isValid) return zone;
  }
  return 'UTC';
}

function closedDay(rules: RecipientRules, locale: RecipientLocale, day: DateTime): boolean {
  return rules.skipHolidays && locale.region !== null && isPublicHoliday(locale.region, day.toISODate() as string);
}

function atMinutes(day: DateTime, minutes: number): DateTime {
  return minutes >= 24 * 60 ? day.plus({ days: 1 }) : day.set({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
}

/**
 * The first instant at or after `from` when the recipient may be called by their own rules (hours in
 * their zone, holidays of their region), ignoring the campaign's window; null when none within 40 days.
 */
export function nextRecipientOpening(rules: RecipientRules, locale: RecipientLocale, campaignZone: string, from: Date): Date | null {
  const zone = recipientZone(locale, campaignZone);
  const start = DateTime.fromJSDate(from, { zone });
  const hours = rules.hours ?? { start: 0, end: 24 * 60 };
  for (let offset = 0; offset <= HORIZON_DAYS; offset++) {
    const day = start.startOf('day').plus({ days: offset });
    if (closedDay(rules, locale, day)) continue;
    const open = atMinutes(day, hours.start);
    const close = atMinutes(day, hours.end);
    if (close <= start) continue;
    return (open <= start ? start : open).toJSDate();
  }
  return null;
}

/** Whether the recipient may be called at `at`, and if not, why (a holiday wins over the hours). */
export function recipientClosureAt(rules: RecipientRules, locale: RecipientLocale, campaignZone: string, at: Date): RecipientClosure | null {
  const local = DateTime.fromJSDate(at, { zone: recipientZone(locale, campaignZone) });
  if (closedDay(rules, locale, local.startOf('day'))) return 'holiday';
  if (!rules.hours) return null;
  const minute = local.hour * 60 + local.minute;
  return minute >= rules.hours.start && minute < rules.hours.end ? null : 'outside_recipient_hours';
}

/**
 * The first instant at or after `from` when both the campaign may dial (its window, dial days,
 * schedule) and the recipient may be called (their hours and holidays): the intersection, found by
 * moving to whichever side opens later until both agree. Null when never (within the horizon).
 */
export function nextContactOpening(schedule: DialSchedule, rules: RecipientRules | null, locale: RecipientLocale, from: Date): Date | null {
  let at: Date | null = from;
  for (let round = 0; round < 64 && at; round++) {
    const campaignOpen = nextDialOpening(schedule, at);
    if (!campaignOpen || !rules) return campaignOpen;
    const recipientOpen = nextRecipientOpening(rules, locale, schedule.timezone, campaignOpen);
    if (!recipientOpen) return null;
    if (recipientOpen.getTime() === campaignOpen.getTime()) return campaignOpen;
    at = recipientOpen;
  }
  return null;
}

/** The key a contact's locale is matched by in SQL (zone and region; "" for unknown). */
export function localeKey(locale: RecipientLocale): string {
  return `${locale.zone ?? ''}|${locale.region ?? ''}`;
}
