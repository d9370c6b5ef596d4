import { column, ColumnCodec, defineTable } from '@outreach/platform';

/** Attempts started by a campaign on one day of its own calendar: the dailyDialCap counter. */
export interface CampaignDailyDials {
  campaignId: string;
  /** The local day, YYYY-MM-DD. */
  day: string;
  dials: number;
  /** Message attempts started that day: the dailyMessageCap counter (decisions.md 33). */
  messages: number;
}

/** A date column written and compared as YYYY-MM-DD text (it is never read back). */
const day = (name: string): ColumnCodec<string> => ({ ...column.text(name), cast: 'date' });

/** The campaign_daily_dials table, declared once. */
export const CAMPAIGN_DAILY_DIALS = defineTable<CampaignDailyDials>('campaign_daily_dials', {
  campaignId: column.uuid('campaign_id'),
  day: day('day'),
  dials: column.int('dials'),
  messages: column.int('messages'),
});
