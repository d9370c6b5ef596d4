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
