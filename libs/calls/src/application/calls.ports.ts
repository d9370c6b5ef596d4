import type { CallOutcome } from '@outreach/telephony';
import { AnalysisStatus, Call, CallKind, CallStatus } from '../domain/call';

/** The calls module's queue and its jobs (payloads carry ids only). */
export enum CallsQueue {
  Calls = 'calls',
}

export enum CallsJob {
  /** Payload `{ callId }`: extraction + evaluation of a finished call's transcript (analysisStatus PENDING). */
  Analyse = 'analyse',
  /** Payload `{ event }` (a VoiceCallEventWire): one provider event received by webhook, applied in the worker. */
  ProviderEvent = 'provider-event',
  /** Payload `{ request }` (TakeInboundPayload): the agent takes an admitted inbound call, in the worker (decisions.md 36.3). */
  TakeInbound = 'take-inbound',
}

/** A call as other modules and the API see it (timestamps as ISO-8601 UTC strings). */
export interface CallView {
  id: string;
  workspaceId: string;
  campaignId: string | null;
  contactId: string | null;
  agentId: string | null;
  fromNumber: string | null;
  toNumber: string;
  kind: CallKind;
  status: CallStatus;
  outcome: CallOutcome | null;
  providerDisposition: string | null;
  attemptNumber: number;
  startedAt: string;
  answeredAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  transcript: string | null;
  recordingUrl: string | null;
  providerAnalysis: Record<string, unknown> | null;
  extraction: Record<string, unknown> | null;
  evaluation: Record<string, unknown> | null;
  analysisStatus: AnalysisStatus;
  createdAt: string;
}

export abstract class CallRepository {
  /** Inserts; 409 idempotency_key_reused when the workspace has a call with this idempotency key. */
  abstract insert(call: Call): Promise<void>;
  /** Several new calls without idempotency keys in one statement (decisions.md 16.32). */
  abstract insertMany(calls: readonly Call[]): Promise<void>;
  /** Saves the ending of a call. */
  abstract update(call: Call): Promise<void>;
  /** Saves several calls' progress or endings (the columns `progress` and `finish` change) in one statement (decisions.md 16.31). */
  abstract updateMany(calls: readonly Call[]): Promise<void>;
  /** Deletes a call the provider never took (still QUEUED, no event applied); false when it is not such a call. */
  abstract discardQueued(id: string): Promise<boolean>;
  /** The workspace's call; null for unknown, malformed or another workspace's ids. */
  abstract findById(workspaceId: string, id: string): Promise<Call | null>;
  /** Any call by id (the worker knows only ids); `lock` takes the row lock inside a transaction. */
  abstract findAnyById(id: string, options?: { lock?: boolean }): Promise<Call | null>;
  /** findAnyById of several ids, in id order (so two batches never deadlock on their locks); unknown ids are left out. */
  abstract findAnyByIds(ids: readonly string[], options?: { lock?: boolean }): Promise<Call[]>;
  /**
   * Outcomes of the campaign's latest calls placed at or after `since` that have ended, newest
   * first, at most `limit` (the circuit breaker's window, decisions.md 16.26).
   */
  abstract recentOutcomes(campaignId: string, since: Date, limit: number, fromNumbers?: readonly string[] | null): Promise<string[]>;
  /** The call a provider event was applied to, or null when it was not (an inbound call's offer names the call it became). */
  abstract eventCallId(provider: string, eventId: string): Promise<string | null>;
  /** Whether a provider event (by the provider's own event id) was applied already. */
  abstract hasEvent(provider: string, eventId: string): Promise<boolean>;
  /** Notes a provider event as applied; false when it was noted before (a concurrent redelivery). */
  abstract addEvent(event: { provider: string; eventId: string; callId: string; type: string }): Promise<boolean>;
  /** Which of a provider's event ids were applied already, in one statement (decisions.md 16.33). */
  abstract appliedEvents(provider: string, eventIds: readonly string[]): Promise<Set<string>>;
  /** addEvent of several events in one statement; one noted before is skipped. */
  abstract addEvents(events: ReadonlyArray<{ provider: string; eventId: string; callId: string; type: string }>): Promise<void>;
}
