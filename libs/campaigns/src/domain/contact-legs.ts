import { CAMPAIGN_CHANNELS, type CampaignChannel } from './campaign-kinds';

/**
 * The legs of a contact's outreach (decisions.md 33): a voice leg places calls, a message leg sends
 * one templated message (with its retries). A channel is its legs in order; CUSTOM campaigns are
 * run by their workflow, not by legs.
 */
export const CONTACT_LEGS = ['VOICE', 'WHATSAPP', 'EMAIL'] as const;
export type ContactLeg = (typeof CONTACT_LEGS)[number];

const LEGS: Readonly<Record<CampaignChannel, readonly ContactLeg[]>> = {
  VOICE: ['VOICE'],
  WHATSAPP: ['WHATSAPP'],
  EMAIL: ['EMAIL'],
  VOICE_THEN_WHATSAPP: ['VOICE', 'WHATSAPP'],
  WHATSAPP_THEN_VOICE: ['WHATSAPP', 'VOICE'],
  CUSTOM: [],
};

export function channelLegs(channel: CampaignChannel): readonly ContactLeg[] {
  return LEGS[channel];
}

/** The leg a contact's attempt runs: the one it was moved to, else the channel's first. */
export function currentLeg(channel: CampaignChannel, leg: ContactLeg | null): ContactLeg | null {
  return leg ?? LEGS[channel][0] ?? null;
}

/** The channels whose first leg is `leg`: a contact of theirs with no leg of its own runs it. */
export function channelsStartingWith(leg: ContactLeg): CampaignChannel[] {
  return CAMPAIGN_CHANNELS.filter((channel) => LEGS[channel][0] === leg);
}

/** The leg after `leg` in the channel, or null when it is the last. */
export function nextLeg(channel: CampaignChannel, leg: ContactLeg): ContactLeg | null {
  const legs = LEGS[channel];
  const index = legs.indexOf(leg);
  return index >= 0 ? (legs[index + 1] ?? null) : null;
}

export function isMessageLeg(leg: ContactLeg | null): leg is 'WHATSAPP' | 'EMAIL' {
  return leg === 'WHATSAPP' || leg === 'EMAIL';
}
