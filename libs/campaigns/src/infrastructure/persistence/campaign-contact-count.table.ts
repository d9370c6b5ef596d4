import { column, defineTable } from '@outreach/platform';

/** One shard of a campaign's contact count (see contact-count.sql.ts). */
export interface ContactCountShard {
  campaignId: string;
  shard: number;
  n: number;
}

/** The campaign_contact_counts table, declared once. */
export const CAMPAIGN_CONTACT_COUNTS = defineTable<ContactCountShard>('campaign_contact_counts', {
  campaignId: column.uuid('campaign_id'),
  shard: column.int('shard'),
  n: column.int('n'),
});
