import { DialSchedule, dialWindowAt, nextDialOpening, startOfNextLocalDay } from './dial-window';

const kolkata: DialSchedule = {
  timezone: 'Asia/Kolkata', // UTC+05:30, no DST
  dailyWindowStart: '09:00',
  dailyWindowEnd: '18:00',
  dialDays: [1, 2, 3, 4, 5],
  scheduledStartAt: null,
  scheduledEndAt: null,
};
const at = (iso: string) => new Date(iso);

describe('dial window (campaign timezone)', () => {
  it('09:00 Kolkata is 03:30 UTC: closed at 03:00 UTC, open from 03:30 UTC', () => {
    // 2026-11-23 is a Monday.
    expect(dialWindowAt(kolkata, at('2026-11-23T03:00:00Z'))).toEqual({
      open: false,
      localDay: '2026-11-23',
      nextOpening: at('2026-11-23T03:30:00Z'),
    });
    expect(dialWindowAt(kolkata, at('2026-11-23T03:30:00Z')).open).toBe(true);
    expect(dialWindowAt(kolkata, at('2026-11-23T03:31:00Z')).open).toBe(true);
    // 18:00 Kolkata = 12:30 UTC: closed at the end; next opening Tuesday 09:00 local.
    expect(dialWindowAt(kolkata, at('2026-11-23T12:29:59Z')).open).toBe(true);
    expect(dialWindowAt(kolkata, at('2026-11-23T12:30:00Z'))).toMatchObject({ open: false, nextOpening: at('2026-11-24T03:30:00Z') });
  });

  it('the local day decides dialDays: Sunday local is closed even when it is Monday UTC elsewhere', () => {
    // Sunday 2026-11-22 10:00 Kolkata = 04:30 UTC Sunday.
    expect(dialWindowAt(kolkata, at('2026-11-22T04:30:00Z'))).toMatchObject({ open: false, localDay: '2026-11-22', nextOpening: at('2026-11-23T03:30:00Z') });
    // Friday 20:00 local → next opening Monday 09:00 local.
    expect(nextDialOpening(kolkata, at('2026-11-27T14:30:00Z'))).toEqual(at('2026-11-30T03:30:00Z'));
  });

  it('local day follows the timezone, not UTC', () => {
    // 2026-11-23T20:00Z is 01:30 on the 24th in Kolkata.
    expect(dialWindowAt(kolkata, at('2026-11-23T20:00:00Z')).localDay).toBe('2026-11-24');
    expect(startOfNextLocalDay('Asia/Kolkata', at('2026-11-23T20:00:00Z'))).toEqual(at('2026-11-24T18:30:00Z'));
  });

  it('overnight windows and all-day windows', () => {
    const night: DialSchedule = { ...kolkata, timezone: 'UTC', dailyWindowStart: '22:00', dailyWindowEnd: '06:00', dialDays: [0, 1, 2, 3, 4, 5, 6] };
    expect(dialWindowAt(night, at('2026-11-23T23:00:00Z')).open).toBe(true);
    expect(dialWindowAt(night, at('2026-11-24T05:59:00Z')).open).toBe(true);
    expect(dialWindowAt(night, at('2026-11-24T12:00:00Z'))).toMatchObject({ open: false, nextOpening: at('2026-11-24T22:00:00Z') });
    const allDay: DialSchedule = { ...night, dailyWindowStart: '00:00', dailyWindowEnd: '00:00' };
    expect(dialWindowAt(allDay, at('2026-11-24T12:00:00Z')).open).toBe(true);
  });

  it('honours scheduledStartAt and scheduledEndAt', () => {
    const scheduled: DialSchedule = { ...kolkata, scheduledStartAt: at('2026-11-25T06:00:00Z'), scheduledEndAt: at('2026-11-26T00:00:00Z') };
    expect(dialWindowAt(scheduled, at('2026-11-24T06:00:00Z'))).toMatchObject({ open: false, nextOpening: at('2026-11-25T06:00:00Z') });
    expect(dialWindowAt(scheduled, at('2026-11-25T06:00:00Z')).open).toBe(true);
    expect(dialWindowAt(scheduled, at('2026-11-25T13:00:00Z'))).toMatchObject({ open: false, nextOpening: null });
  });

  it('no dial days: never', () => {
    expect(dialWindowAt({ ...kolkata, dialDays: [] }, at('2026-11-23T05:00:00Z'))).toMatchObject({ open: false, nextOpening: null });
  });

  it('DST: a New York window opens at 09:00 local on both sides of the change', () => {
    const ny: DialSchedule = { ...kolkata, timezone: 'America/New_York', dialDays: [0, 1, 2, 3, 4, 5, 6] };
    expect(nextDialOpening(ny, at('2026-10-31T23:00:00Z'))).toEqual(at('2026-11-01T14:00:00Z')); // EST after the change
    expect(nextDialOpening(ny, at('2026-10-30T23:00:00Z'))).toEqual(at('2026-10-31T13:00:00Z')); // EDT before
  });
});
