import { CampaignSource, LIST_SOURCES } from './campaign-kinds';

/**
 * May a call of a contact at `depth` add the referrals it captured (decisions.md 35.6)? Only while
 * depth < referralMaxDepth (0, the default, adds none), and only to list-sourced campaigns: an API
 * or webhook campaign's contacts are the client's leads, each answered by one result keyed on the
 * client's own id, which a referral does not have.
 */
export function referralsAllowed(campaign: { source: CampaignSource; settings: { referralMaxDepth: number } }, depth: number): boolean {
  return LIST_SOURCES.includes(campaign.source) && depth < campaign.settings.referralMaxDepth;
}
