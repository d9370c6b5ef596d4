import { CampaignJob, CampaignQueue } from '@outreach/campaigns';
import type { OutboxJob } from '@outreach/core';

/**
 * The engine's queues and jobs, in one place (payloads carry ids only):
 * - campaigns / dispatch `{ campaignId }`: claim due contacts of a RUNNING campaign, start attempts;
 * - campaigns / reap `{}`: the repeatable tick (reaper + sweep of RUNNING campaigns);
 * - attempts / attempt `{ contactId, attemptSeq }`: place one call and record its outcome;
 * The analysis of a finished call is the calls module's job (`analyseCallJob` from '@outreach/calls').
 */
export enum EngineQueue {
  Campaigns = CampaignQueue.Campaigns,
  Attempts = 'attempts',
}

export enum EngineJob {
  Dispatch = CampaignJob.Dispatch,
  Attempt = 'attempt',
}

export interface DispatchPayload {
  campaignId: string;
}

export interface AttemptPayload {
  contactId: string;
  /** The contact's attempt sequence number (never reset, unlike the per-run attempt count). */
  attemptSeq: number;
}

/** BullMQ refuses ids with ':' and all-digit ids; these are neither. */
export function attemptJobId(contactId: string, attemptSeq: number): string {
  return `attempt-${contactId}-${attemptSeq}`;
}

export function attemptJob(contactId: string, attemptSeq: number): OutboxJob {
  const payload: AttemptPayload = { contactId, attemptSeq };
  return { queue: EngineQueue.Attempts, name: EngineJob.Attempt, payload: { ...payload }, jobId: attemptJobId(contactId, attemptSeq) };
}

/** A dispatch wake-up written with the change that frees a slot (an attempt's outcome). */
export function dispatchJob(campaignId: string): OutboxJob {
  const payload: DispatchPayload = { campaignId };
  return { queue: EngineQueue.Campaigns, name: EngineJob.Dispatch, payload: { ...payload } };
}

/** Scheduled dispatch ticks: one job per campaign and wake-up instant, so ticks never pile up. */
export function dispatchTickJobId(campaignId: string, wakeAtMs: number): string {
  return `dispatch-${campaignId}-${wakeAtMs}`;
}
