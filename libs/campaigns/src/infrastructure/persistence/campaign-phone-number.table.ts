import { column, defineTable } from '@outreach/platform';

/** A phone number (telephony module) attached to a campaign. */
export interface CampaignPhoneNumberRecord {
  campaignId: string;
  phoneNumberId: string;
  createdAt: Date;
}

/** The campaign_phone_numbers table, declared once. */
export const CAMPAIGN_PHONE_NUMBERS = defineTable<CampaignPhoneNumberRecord>('campaign_phone_numbers', {
  campaignId: column.uuid('campaign_id'),
  phoneNumberId: column.uuid('phone_number_id'),
  createdAt: column.timestamp('created_at'),
});
