import { AppError } from '@outreach/core';

/** What a campaign sends and where its audience comes from (spec: Campaign). */
export const CAMPAIGN_CHANNELS = [
  'VOICE',
  'WHATSAPP',
  'VOICE_THEN_WHATSAPP',
  'WHATSAPP_THEN_VOICE',
  'CUSTOM',
  'EMAIL',
] as const;
export type CampaignChannel = (typeof CAMPAIGN_CHANNELS)[number];

export const CAMPAIGN_SOURCES = ['CSV', 'CRM_MANUAL', 'CRM_WEBHOOK', 'API', 'INBOUND'] as const;
export type CampaignSource = (typeof CAMPAIGN_SOURCES)[number];

/** Sources a campaign can be created with or switched to over the API (INBOUND has its own flow). */
export const EDITABLE_CAMPAIGN_SOURCES = ['CSV', 'CRM_MANUAL', 'CRM_WEBHOOK', 'API'] as const;

/** Journey campaigns (driven by a workflow) accept only these sources. */
export const JOURNEY_SOURCES: readonly CampaignSource[] = ['CSV', 'API'];

/** A journey campaign holds at most this many contacts (journey_campaign_contact_cap; decisions.md 37.5). */
export const JOURNEY_CONTACT_CAP = 50_000;
/** A journey campaign takes no more API leads while this many are pending or in flight (journey_campaign_live_cap). */
export const JOURNEY_LIVE_CAP = 5_000;
/** The Retry-After of journey_campaign_live_cap, in seconds. */
export const JOURNEY_LIVE_CAP_RETRY_AFTER_SECONDS = 30;

/** Sources whose audience is a fixed list of contacts: the campaign completes when all are final. */
export const LIST_SOURCES: readonly CampaignSource[] = ['CSV', 'CRM_MANUAL'];

/** The channel places calls (a voice leg): needs an agent and phone numbers. */
export function hasVoiceLeg(channel: CampaignChannel): boolean {
  return channel === 'VOICE' || channel === 'VOICE_THEN_WHATSAPP' || channel === 'WHATSAPP_THEN_VOICE';
}

/** The channel sends WhatsApp messages (a message leg): needs a sender and an outreach template. */
export function hasMessageLeg(channel: CampaignChannel): boolean {
  return channel === 'WHATSAPP' || channel === 'VOICE_THEN_WHATSAPP' || channel === 'WHATSAPP_THEN_VOICE';
}

export const EXTRACTION_MODES = ['APPEND', 'REPLACE'] as const;
export type ExtractionMode = (typeof EXTRACTION_MODES)[number];

/** Refuses a journey campaign's contact list beyond JOURNEY_CONTACT_CAP (checked after an import, inside its transaction). */
export function assertJourneyContactCap(journey: boolean, contactCount: number): void {
  if (journey && contactCount > JOURNEY_CONTACT_CAP) {
    throw new AppError('journey_campaign_contact_cap', { message: `a journey campaign holds at most ${JOURNEY_CONTACT_CAP} contacts; this would make ${contactCount}` });
  }
}
