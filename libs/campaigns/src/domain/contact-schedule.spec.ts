import { DEFAULT_CAMPAIGN_SETTINGS } from './campaign-settings';
import { contactWaiting, ScheduleCampaign, ScheduleContact } from './contact-schedule';

const at = (iso: string) => new Date(iso);
// Tuesday 2026-11-24 12:30Z: 21:30 in Tokyo (closed), 07:30 in New York (closed), 12:30 in London.
const NOW = at('2026-11-24T12:30:00Z');

const campaign = (over: Partial<ScheduleCampaign> = {}, settings: Partial<ScheduleCampaign['settings']> = {}): ScheduleCampaign => ({
  status: 'RUNNING',
  pauseReason: null,
  timezone: 'UTC',
  scheduledStartAt: null,
  scheduledEndAt: null,
  ...over,
  settings: { ...structuredClone(DEFAULT_CAMPAIGN_SETTINGS), dailyWindowStart: '00:00', dailyWindowEnd: '00:00', ...settings },
});
const contact = (over: Partial<ScheduleContact> = {}): ScheduleContact => ({
  status: 'PENDING',
  nextAttemptAt: null,
  lastAttemptAt: null,
  recipientZone: 'Europe/London',
  recipientRegion: 'GB',
  ...over,
});
const tokyo = { recipientZone: 'Asia/Tokyo', recipientRegion: 'JP' };

describe('why a contact waits (decisions.md 28.5)', () => {
  it('due now: no reason, expected now', () => {
    expect(contactWaiting(campaign(), contact(), NOW, 0)).toEqual({ nextAttemptAt: NOW, waitingReason: null });
  });

  it('outside its recipient hours: the reason and the opening', () => {
    expect(contactWaiting(campaign(), contact(tokyo), NOW, 0)).toEqual({
      nextAttemptAt: at('2026-11-24T23:00:00Z'),
      waitingReason: 'outside_recipient_hours',
    });
    expect(contactWaiting(campaign({}, { recipientHours: 'off' }), contact(tokyo), NOW, 0)).toEqual({ nextAttemptAt: NOW, waitingReason: null });
  });

  it('a recipient holiday (skipHolidays)', () => {
    const thanksgivingNoon = at('2026-11-26T17:00:00Z');
    const ny = contact({ recipientZone: 'America/New_York', recipientRegion: 'US-NY' });
    expect(contactWaiting(campaign({}, { skipHolidays: true }), ny, thanksgivingNoon, 0)).toEqual({
      nextAttemptAt: at('2026-11-27T13:00:00Z'),
      waitingReason: 'holiday',
    });
    expect(contactWaiting(campaign(), ny, thanksgivingNoon, 0).waitingReason).toBeNull();
  });

  it('a scheduled retry, pushed to the next opening of the recipient', () => {
    const retry = contact({ ...tokyo, status: 'RETRY_SCHEDULED', nextAttemptAt: at('2026-11-24T13:00:00Z'), lastAttemptAt: at('2026-11-24T11:00:00Z') });
    expect(contactWaiting(campaign(), retry, NOW, 0)).toEqual({ nextAttemptAt: at('2026-11-24T23:00:00Z'), waitingReason: 'retry_scheduled' });
  });

  it('cooldown, the campaign window and the daily cap', () => {
    const cooling = contact({ lastAttemptAt: at('2026-11-24T12:00:00Z') });
    expect(contactWaiting(campaign(), cooling, NOW, 0)).toEqual({ nextAttemptAt: at('2026-11-24T13:00:00Z'), waitingReason: 'cooldown' });
    const window = campaign({}, { dailyWindowStart: '14:00', dailyWindowEnd: '16:00' });
    expect(contactWaiting(window, contact(), NOW, 0)).toEqual({ nextAttemptAt: at('2026-11-24T14:00:00Z'), waitingReason: 'outside_campaign_window' });
    const capped = campaign({}, { dailyDialCap: 10 });
    expect(contactWaiting(capped, contact(), NOW, 10)).toEqual({ nextAttemptAt: at('2026-11-25T08:00:00Z'), waitingReason: 'daily_cap' });
    expect(contactWaiting(capped, contact(), NOW, 9).waitingReason).toBeNull();
  });

  it('the campaign’s status speaks first; contacts in flight or final wait for nothing', () => {
    expect(contactWaiting(campaign({ status: 'PAUSED', pauseReason: 'circuit_open' }), contact(), NOW, 0)).toEqual({ nextAttemptAt: null, waitingReason: 'circuit_open' });
    expect(contactWaiting(campaign({ status: 'PAUSED', pauseReason: 'budget_reached' }), contact(), NOW, 0)).toEqual({ nextAttemptAt: null, waitingReason: 'budget_reached' });
    expect(contactWaiting(campaign({ status: 'PAUSED', pauseReason: 'user' }), contact(), NOW, 0).waitingReason).toBe('campaign_paused');
    expect(contactWaiting(campaign({ status: 'CREDIT_EXHAUSTED' }), contact(), NOW, 0).waitingReason).toBe('credit_exhausted');
    expect(contactWaiting(campaign({ status: 'DRAFT' }), contact(), NOW, 0).waitingReason).toBe('campaign_not_started');
    expect(contactWaiting(campaign({ status: 'CANCELED' }), contact(), NOW, 0).waitingReason).toBe('campaign_ended');
    for (const status of ['IN_PROGRESS', 'COMPLETED', 'FAILED', 'DO_NOT_CALL'] as const) {
      expect(contactWaiting(campaign(), contact({ status }), NOW, 0)).toEqual({ nextAttemptAt: null, waitingReason: null });
    }
  });
});
