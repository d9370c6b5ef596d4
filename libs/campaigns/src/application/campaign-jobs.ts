/** Queue and job names of the campaign engine (the dispatch processor arrives with the engine). */
export enum CampaignQueue {
  Campaigns = 'campaigns',
}

export enum CampaignJob {
  /** Payload `{ campaignId }`: claim pending contacts of a RUNNING campaign and start attempts. */
  Dispatch = 'dispatch',
}
