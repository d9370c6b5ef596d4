import { DateTime } from 'luxon';

/** When a campaign may dial (settings in the campaign's IANA timezone). */
export interface DialSchedule {
  timezone: string;
  /** HH:MM local; a window with end ≤ start runs past midnight (end = start: all day). */
  dailyWindowStart: string;
  dailyWindowEnd: string;
  /** Days a window may open on, 0 = Sunday … 6 = Saturday. */
  dialDays: readonly number[];
  scheduledStartAt: Date | null;
  scheduledEndAt: Date | null;
}

export interface DialWindowState {
  /** Dialling is allowed at this instant. */
  open: boolean;
  /** The local calendar date (YYYY-MM-DD) at this instant: the dailyDialCap's "today". */
  localDay: string;
  /** The next instant dialling is allowed (this instant when open); null when never again (scheduledEndAt). */
  nextOpening: Date | null;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

function minutesOf(hhmm: string): number {
  const match = HHMM.exec(hhmm);
  if (!match) return 0;
  return Number(match[1]) * 60 + Number(match[2]);
}

function zoneOf(timezone: string): string {
  return DateTime.local().setZone(timezone).isValid ? timezone : 'UTC';
}

/** The allowed windows [start, end) whose local day is within [from - 1 day, from + 8 days], in order. */
function windowsAround(schedule: DialSchedule, from: Date): Array<{ start: DateTime; end: DateTime }> {
  const zone = zoneOf(schedule.timezone);
  const startMin = minutesOf(schedule.dailyWindowStart);
  const endMin = minutesOf(schedule.dailyWindowEnd);
  const today = DateTime.fromJSDate(from, { zone }).startOf('day');
  const windows: Array<{ start: DateTime; end: DateTime }> = [];
  for (let offset = -1; offset <= 8; offset++) {
    const day = today.plus({ days: offset });
    if (!schedule.dialDays.includes(day.weekday % 7)) continue;
    const start = day.set({ hour: Math.floor(startMin / 60), minute: startMin % 60 });
    const endDay = endMin > startMin ? day : day.plus({ days: 1 });
    const end = endDay.set({ hour: Math.floor(endMin / 60), minute: endMin % 60 });
    windows.push({ start, end });
  }
  return windows;
}

/** The first instant at or after `from` when the schedule allows dialling; null when never. */
export function nextDialOpening(schedule: DialSchedule, from: Date): Date | null {
  let at = from;
  if (schedule.scheduledStartAt && schedule.scheduledStartAt.getTime() > at.getTime()) at = schedule.scheduledStartAt;
  if (schedule.dialDays.length === 0) return null;
  let found: Date | null = null;
  for (const w of windowsAround(schedule, at)) {
    const start = w.start.toJSDate();
    const end = w.end.toJSDate();
    if (end.getTime() <= at.getTime()) continue;
    found = start.getTime() <= at.getTime() ? at : start;
    break;
  }
  if (found && schedule.scheduledEndAt && found.getTime() >= schedule.scheduledEndAt.getTime()) return null;
  return found;
}

/** Whether the campaign may dial at `now`, today's local date, and when it may dial next. */
export function dialWindowAt(schedule: DialSchedule, now: Date): DialWindowState {
  const nextOpening = nextDialOpening(schedule, now);
  return {
    open: nextOpening !== null && nextOpening.getTime() === now.getTime(),
    localDay: DateTime.fromJSDate(now, { zone: zoneOf(schedule.timezone) }).toISODate() as string,
    nextOpening,
  };
}

/** The start of the next local day (where a daily cap resets). */
export function startOfNextLocalDay(timezone: string, now: Date): Date {
  return DateTime.fromJSDate(now, { zone: zoneOf(timezone) }).startOf('day').plus({ days: 1 }).toJSDate();
}
