import { DialSchedule } from './dial-window';
import { nextContactOpening, nextRecipientOpening, recipientClosureAt, RecipientRules, recipientRulesOf } from './recipient-hours';
import { RecipientLocale } from './recipient-locale';

const at = (iso: string) => new Date(iso);
const TOKYO: RecipientLocale = { zone: 'Asia/Tokyo', region: 'JP' };
const NEW_YORK: RecipientLocale = { zone: 'America/New_York', region: 'US-NY' };
const UNKNOWN: RecipientLocale = { zone: null, region: null };
const hours: RecipientRules = { hours: { start: 8 * 60, end: 21 * 60 }, skipHolidays: false };
const hoursAndHolidays: RecipientRules = { ...hours, skipHolidays: true };
const alwaysOpen: DialSchedule = {
  timezone: 'UTC',
  dailyWindowStart: '00:00',
  dailyWindowEnd: '00:00',
  dialDays: [0, 1, 2, 3, 4, 5, 6],
  scheduledStartAt: null,
  scheduledEndAt: null,
};

describe('recipient rules from the settings', () => {
  it('off and no holidays: no rules; HH:MM become minutes', () => {
    expect(recipientRulesOf({ recipientHours: 'off', skipHolidays: false })).toBeNull();
    expect(recipientRulesOf({ recipientHours: 'off', skipHolidays: true })).toEqual({ hours: null, skipHolidays: true });
    expect(recipientRulesOf({ recipientHours: { start: '08:00', end: '21:00' }, skipHolidays: false })).toEqual(hours);
  });
});

describe('next opening in the recipient’s own hours', () => {
  it('08:00–21:00 Tokyo is 23:00–12:00 UTC', () => {
    // 2026-11-24 (Tue) 09:00 JST = 00:00Z: open now.
    expect(nextRecipientOpening(hours, TOKYO, 'UTC', at('2026-11-24T00:00:00Z'))).toEqual(at('2026-11-24T00:00:00Z'));
    // 21:00 JST = 12:00Z: closed; next 08:00 JST on the 25th = 23:00Z on the 24th.
    expect(nextRecipientOpening(hours, TOKYO, 'UTC', at('2026-11-24T12:00:00Z'))).toEqual(at('2026-11-24T23:00:00Z'));
    expect(recipientClosureAt(hours, TOKYO, 'UTC', at('2026-11-24T12:00:00Z'))).toBe('outside_recipient_hours');
    expect(recipientClosureAt(hours, TOKYO, 'UTC', at('2026-11-24T11:59:00Z'))).toBeNull();
  });

  it('a public holiday closes the recipient-local day (skipHolidays)', () => {
    // 2026-11-23 is Labour Thanksgiving Day in Japan: 08:00 JST that day (22nd 23:00Z) is closed; next is the 24th 08:00 JST.
    expect(nextRecipientOpening(hours, TOKYO, 'UTC', at('2026-11-22T23:00:00Z'))).toEqual(at('2026-11-22T23:00:00Z'));
    expect(nextRecipientOpening(hoursAndHolidays, TOKYO, 'UTC', at('2026-11-22T23:00:00Z'))).toEqual(at('2026-11-23T23:00:00Z'));
    expect(recipientClosureAt(hoursAndHolidays, TOKYO, 'UTC', at('2026-11-23T03:00:00Z'))).toBe('holiday');
    // US Thanksgiving 2026-11-26: a New York contact is next called on Friday 08:00 EST (13:00Z).
    expect(nextRecipientOpening(hoursAndHolidays, NEW_YORK, 'UTC', at('2026-11-26T02:00:00Z'))).toEqual(at('2026-11-27T13:00:00Z'));
    // Holidays only (hours off): the whole local day, nothing else.
    const holidaysOnly: RecipientRules = { hours: null, skipHolidays: true };
    expect(nextRecipientOpening(holidaysOnly, NEW_YORK, 'UTC', at('2026-11-26T12:00:00Z'))).toEqual(at('2026-11-27T05:00:00Z'));
    expect(recipientClosureAt(holidaysOnly, NEW_YORK, 'UTC', at('2026-11-27T04:59:00Z'))).toBe('holiday');
    expect(recipientClosureAt(holidaysOnly, NEW_YORK, 'UTC', at('2026-11-27T05:00:00Z'))).toBeNull();
  });

  it('DST: 08:00 New York is 12:00Z before the November change and 13:00Z after it', () => {
    expect(nextRecipientOpening(hours, NEW_YORK, 'UTC', at('2026-10-31T02:00:00Z'))).toEqual(at('2026-10-31T12:00:00Z'));
    expect(nextRecipientOpening(hours, NEW_YORK, 'UTC', at('2026-11-01T02:00:00Z'))).toEqual(at('2026-11-01T13:00:00Z'));
    // March: 08:00 EDT on the 8th (the change's day) is 12:00Z.
    expect(nextRecipientOpening(hours, NEW_YORK, 'UTC', at('2026-03-08T06:00:00Z'))).toEqual(at('2026-03-08T12:00:00Z'));
  });

  it('an unknown zone reads the hours in the campaign’s zone', () => {
    expect(nextRecipientOpening(hours, UNKNOWN, 'Asia/Kolkata', at('2026-11-24T00:00:00Z'))).toEqual(at('2026-11-24T02:30:00Z'));
    expect(recipientClosureAt(hours, UNKNOWN, 'Asia/Kolkata', at('2026-11-24T02:29:00Z'))).toBe('outside_recipient_hours');
  });
});

describe('the intersection with the campaign’s window', () => {
  const london: DialSchedule = { ...alwaysOpen, timezone: 'Europe/London', dailyWindowStart: '09:00', dailyWindowEnd: '18:00', dialDays: [1, 2, 3, 4, 5] };

  it('London 09:00–18:00 (GMT) ∩ New York 08:00–21:00 (EST) = 13:00–18:00Z on weekdays', () => {
    expect(nextContactOpening(london, hours, NEW_YORK, at('2026-11-24T09:00:00Z'))).toEqual(at('2026-11-24T13:00:00Z'));
    expect(nextContactOpening(london, hours, NEW_YORK, at('2026-11-24T15:00:00Z'))).toEqual(at('2026-11-24T15:00:00Z'));
    expect(nextContactOpening(london, hours, NEW_YORK, at('2026-11-24T18:30:00Z'))).toEqual(at('2026-11-25T13:00:00Z'));
    // Friday evening → Monday.
    expect(nextContactOpening(london, hours, NEW_YORK, at('2026-11-27T18:30:00Z'))).toEqual(at('2026-11-30T13:00:00Z'));
  });

  it('holidays and dial days together: Wednesday evening → Friday (Thursday is Thanksgiving)', () => {
    expect(nextContactOpening(london, hoursAndHolidays, NEW_YORK, at('2026-11-25T18:30:00Z'))).toEqual(at('2026-11-27T13:00:00Z'));
  });

  it('no rules: the campaign’s window alone; windows that never meet: null', () => {
    expect(nextContactOpening(london, null, TOKYO, at('2026-11-24T07:00:00Z'))).toEqual(at('2026-11-24T09:00:00Z'));
    // New York 09:00–17:00 (14:00–22:00Z) and Tokyo 08:00–21:00 (23:00–12:00Z) never overlap.
    const ny: DialSchedule = { ...alwaysOpen, timezone: 'America/New_York', dailyWindowStart: '09:00', dailyWindowEnd: '17:00' };
    expect(nextContactOpening(ny, hours, TOKYO, at('2026-11-24T00:00:00Z'))).toBeNull();
  });
});
