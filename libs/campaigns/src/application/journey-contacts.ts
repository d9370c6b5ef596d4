import type { ContactStatus } from '../domain/contact-state-machine';

/** A journey campaign's contact as its run sees it (decisions.md 37.12). */
export interface JourneyContact {
  id: string;
  campaignId: string;
  workspaceId: string;
  source: string;
  phone: string;
  name: string | null;
  fields: Record<string, string>;
  status: ContactStatus;
  /** The campaign's workflow. */
  workflowId: string | null;
  /** The campaign's time zone (waits until a local time use it). */
  timezone: string;
}

/**
 * The contacts of journey campaigns (channel CUSTOM), for the workflows module (which cannot read
 * campaign tables). The contact's status is the engine's view of the run (decisions.md 37.12):
 * PENDING before its run starts; parked (RETRY_SCHEDULED, no next_attempt_at, no leg) while the run
 * is anywhere but a call; due (leg VOICE, next_attempt_at set) while a call step waits for the
 * dispatcher; final once the run ended. Every method runs in the caller's transaction.
 */
export abstract class JourneyContacts {
  /**
   * Parks up to `limit` PENDING contacts of the campaign (journeyPark, skipping rows locked by
   * others) and answers them: their runs start in the same transaction.
   */
  abstract admit(campaignId: string, limit: number): Promise<JourneyContact[]>;
  /** A parked contact becomes due for the dispatcher's voice claim at `now`; false when it is not parked. */
  abstract callDue(contactId: string, now: Date): Promise<boolean>;
  /** The run ended: the contact becomes final (journeyEnd or journeyFail), `lastOutcome` replacing its last call's when given; false when it was not waiting. */
  abstract end(contactId: string, outcome: 'COMPLETED' | 'FAILED', lastOutcome: string | null, now: Date): Promise<boolean>;
  abstract find(contactId: string): Promise<JourneyContact | null>;
}
