import type { VoiceCallResult } from '@outreach/telephony';
import type { OutboxJob } from '@outreach/core';

/**
 * Wakes a campaign's dispatcher later (a delayed BullMQ job). Only a hint: due times live in
 * Postgres and the dispatcher re-reads them, so a lost or early wake-up is harmless.
 */
export abstract class DispatchScheduler {
  /** Dispatch `campaignId` in about `delayMs` (coalesced: one wake-up per campaign and instant). */
  abstract wakeIn(campaignId: string, delayMs: number): Promise<void>;

  /** Dispatch `campaignId` as soon as possible (every call adds a wake-up; the dispatcher coalesces runs). */
  abstract wakeNow(campaignId: string): Promise<void>;
}

/**
 * Puts jobs on their queues right after the transaction that wrote them to the outbox commits
 * (the fast lane). The outbox row stays the guarantee: when the relay adds the same job later,
 * its deterministic jobId makes BullMQ ignore the copy, and the handler's state checks make any
 * late duplicate harmless. Best effort: a failure only means the relay's copy is the one that runs.
 */
export abstract class DirectEnqueue {
  abstract enqueue(jobs: ReadonlyArray<{ queue: string; name: string; payload: Record<string, unknown>; jobId?: string }>): Promise<void>;
}

/** An ended call whose outcome could not be stored when it ended (the database was unreachable). */
export interface DeferredSettlement {
  contactId: string;
  attemptSeq: number;
  callId: string;
  campaignId: string;
  result: VoiceCallResult;
}

/**
 * Keeps an ended call's outcome outside the database until it is settled (decisions.md 16.18): a job
 * of its own (`attempts`/`settle`, job id `settle-<callId>`) carrying the outcome, re-run for as
 * long as the database is unreachable. Rejects when the job could not be stored.
 */
export abstract class SettlementQueue {
  abstract defer(settlement: DeferredSettlement): Promise<void>;
}

/**
 * One process at a time runs a periodic sweep (decisions.md 16.44). `hold` answers true when this
 * process holds `name` for the next `ms`: taken when free, renewed when it is already this
 * process's. A holder that stops renewing (it died) loses it after `ms`. Fails open: when the
 * store cannot answer, true (a sweep run twice is harmless, one not run is not).
 */
export abstract class SweepLease {
  abstract hold(name: string, ms: number): Promise<boolean>;
}

/**
 * Attempt jobs that used up their tries (a database outage longer than their backoff) stay in the
 * queue's failed set, and an add under the same id is ignored while they are there. `retry` puts
 * back the ones of `jobIds` that are failed, so their claims are dialled (decisions.md 16.34);
 * answers how many it put back.
 */
export abstract class FailedAttemptJobs {
  abstract retry(jobIds: readonly string[]): Promise<number>;
}

/** A journey's call ended: what the engine settled, handed to the contact's run. */
export interface JourneyCallEnded {
  contactId: string;
  callId: string;
  outcome: string;
}

/**
 * The engine's seam to journey campaigns (channel CUSTOM, decisions.md 37.12), implemented by the
 * workflows module (bound into JourneyStepsBinding when it starts; the engine never imports it).
 * Reservation, windows, DNC, caps and the wallet stay the engine's: a call step makes the contact
 * due, the dispatcher claims it like any voice contact, and the settlement hands the outcome here
 * instead of applying the retry policy.
 */
export abstract class JourneySteps {
  /** Starts the runs of the campaign's contacts that have none yet (dispatch calls it for CUSTOM campaigns). */
  abstract admit(campaignId: string): Promise<void>;
  /** The agent the contact's current call step names (null: none; the call is placed with none). */
  abstract callAgent(contactId: string): Promise<string | null>;
  /**
   * Inside the settlement's transaction, under the contact's lock: records the call step and moves
   * the run on. Answers the jobs to enqueue with the settlement (the run's next step).
   */
  abstract callEnded(call: JourneyCallEnded): Promise<OutboxJob[]>;
}
