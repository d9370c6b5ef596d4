import type { OutboxJob } from '@outreach/core';

/** Queue and job names of the results module (worker side). */
export enum ResultsQueue {
  Results = 'results',
}

export enum ResultsJob {
  /** `{ contactId, callId }`: an API lead's contact reached a final state; write its result (idempotent). */
  LeadFinal = 'lead-final',
  /** `{ deliveryId }`: try one result-webhook delivery if it is due. */
  Deliver = 'deliver',
  /** Repeating: deliveries that are due, expired results, old API logs. */
}

export interface LeadFinalPayload {
  contactId: string;
  /** The call that ended the lead (null when it ended without one, e.g. do-not-call). */
  callId?: string | null;
}

/**
 * The job the engine writes (Outbox.enqueue, in the transaction that makes the contact final)
 * when a contact of an API campaign reaches COMPLETED, FAILED or DO_NOT_CALL, or an outreach rule's HAND_OFF ends it.
 */
export function leadFinalJob(contactId: string, callId: string | null = null): OutboxJob {
  const payload: LeadFinalPayload = { contactId, callId };
  return { queue: ResultsQueue.Results, name: ResultsJob.LeadFinal, payload: { ...payload } };
}

export function deliverJob(deliveryId: string): OutboxJob {
  return { queue: ResultsQueue.Results, name: ResultsJob.Deliver, payload: { deliveryId } };
}
