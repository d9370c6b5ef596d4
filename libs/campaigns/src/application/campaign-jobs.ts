/** Queue and job names of the campaign engine (the dispatch processor arrives with the engine). */
export enum CampaignQueue {
  Campaigns = 'campaigns',
  /** Outreach work of the engine beside the dial (decisions.md 34): replies judged by rules, remessages. */
  Outreach = 'outreach',
}

export enum CampaignJob {
  /** Payload `{ campaignId }`: claim pending contacts of a RUNNING campaign and start attempts. */
  Dispatch = 'dispatch',
  /** Payload `RemessagePayload`: send the campaign's message leg to one contact again (decisions.md 34.6). */
  RemessageContact = 'remessage-contact',
}

export interface RemessagePayload {
  campaignId: string;
  contactId: string;
  /** The request it belongs to: with the contact, the message's idempotency key. */
  remessageId: string;
}
